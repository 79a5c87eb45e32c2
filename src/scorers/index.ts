// Public surface of the scorers room.
export {};
