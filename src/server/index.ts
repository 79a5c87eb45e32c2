// Public surface of the server room.
export {};
