// Public surface of the judge room.
export {};
