// Public surface of the rubric room.
export {};
