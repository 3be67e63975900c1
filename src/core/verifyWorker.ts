// PLACEHOLDER (foundation harness): the verify worker thread entry point; written later.
export {};
