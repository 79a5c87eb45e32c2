// Public surface of the artifact room.
export {};
