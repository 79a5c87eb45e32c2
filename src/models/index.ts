// Public surface of the models room.
export {};
