/**
 * The plan-graph webview's HTML shell: the same discipline as the timeline's (a strict
 * Content-Security-Policy with the script allowed only by a fresh nonce, styles and fonts only
 * from the extension, no command URIs, no forms). The page is built by dist/webview/graph.js with
 * DOM APIs; nothing from a state file is ever part of this HTML.
 */
import * as vscode from "vscode";
import { makeNonce, timelineCsp, timelineWebviewOptions } from "../timelineHtml";

/** The view type of the graph panel. */
export const GRAPH_VIEW_TYPE = "autodev.graph";

/** Webview options of the graph panel (the timeline's resource roots: dist/webview, dist/media, media). */
export function graphWebviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return timelineWebviewOptions(extensionUri);
}

/** The HTML of the graph webview, with a new nonce each time. */
export function graphHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = makeNonce();
  const uri = (...segments: string[]) =>
    webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...segments)).toString();
  const attr = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(timelineCsp(webview.cspSource, nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(uri("dist", "media", "codicon.css"))}">
<link rel="stylesheet" href="${attr(uri("media", "graph.css"))}">
<title>${attr(vscode.l10n.t("AutoDev Plan Graph"))}</title>
</head>
<body>
<div id="graph-root" class="graph-root" data-l10n="${attr(JSON.stringify(vscode.l10n.bundle ?? {}))}"></div>
<script nonce="${attr(nonce)}" src="${attr(uri("dist", "webview", "graph.js"))}"></script>
</body>
</html>`;
}
