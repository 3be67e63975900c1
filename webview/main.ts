// PLACEHOLDER (foundation harness): the timeline webview entry point; written later.
export {};
