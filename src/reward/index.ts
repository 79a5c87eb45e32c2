// Public surface of the reward room.
export {};
