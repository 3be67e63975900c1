/**
 * Entry point of the ledger timeline webview (bundled to dist/webview/timeline.js,
 * loaded with the page's nonce). Builds the page into #timeline-root.
 */
import { TimelineApp } from "./timelineApp";

const started = performance.now();
const root = document.getElementById("timeline-root");
if (root) new TimelineApp(root, started);
