/**
 * Entry point of the ledger timeline webview (bundled to dist/webview/timeline.js,
 * loaded with the page's nonce). Builds the page into #timeline-root.
 */
import { loadL10n } from "../l10n";
import { TimelineApp } from "./timelineApp";

const started = performance.now();
const root = document.getElementById("timeline-root");
if (root) {
  loadL10n(root);
  new TimelineApp(root, started);
}
