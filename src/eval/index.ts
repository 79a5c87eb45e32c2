// Public surface of the eval room.
export {};
