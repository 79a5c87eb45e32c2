// Public surface of the pipeline room.
export {};
