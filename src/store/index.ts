// Public surface of the store room.
export {};
