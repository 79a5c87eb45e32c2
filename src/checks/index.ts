// Public surface of the checks room.
export {};
