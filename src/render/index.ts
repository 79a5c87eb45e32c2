// Public surface of the render room.
export {};
