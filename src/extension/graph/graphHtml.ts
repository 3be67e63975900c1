/**
 * The plan-graph webview's HTML shell: the same discipline as the timeline's (a strict
 * Content-Security-Policy with the script allowed only by a fresh nonce, styles and fonts only
 * from the extension, no command URIs, no forms). The page is built by dist/webview/graph.js with
 * DOM APIs; nothing from a state file is ever part of this HTML.
 */
import * as vscode from "vscode";
import { timelineWebviewOptions, webviewDocument } from "../timeline/timelineHtml";

/** The view type of the graph panel. */
export const GRAPH_VIEW_TYPE = "autodev.graph";

/** Webview options of the graph panel (the timeline's resource roots: dist/webview, dist/media, media). */
export function graphWebviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return timelineWebviewOptions(extensionUri);
}

/** The HTML of the graph webview, with a new nonce each time. */
export function graphHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  return webviewDocument(webview, extensionUri, {
    stylesheet: "graph.css",
    script: "graph.js",
    rootId: "graph-root",
    rootClass: "graph-root",
    title: vscode.l10n.t("AutoDev Plan Graph"),
  });
}
