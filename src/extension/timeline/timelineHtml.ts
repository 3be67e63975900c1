/**
 * The timeline webview's HTML shell and options: a strict Content Security
 * Policy (`default-src 'none'`, the script allowed only by a fresh nonce from
 * `crypto.randomBytes` per render, styles and fonts only from the extension),
 * local resources limited to the bundle and media folders, no command URIs,
 * no forms. The page itself is built by dist/webview/timeline.js with DOM
 * APIs; nothing from the ledger is ever part of this HTML. The root element
 * carries the translation bundle (`data-l10n`, empty in English) that
 * webview/l10n.ts reads, so the page speaks the UI language.
 */
import { randomBytes } from "node:crypto";
import * as vscode from "vscode";

/** The view type of the timeline panel (also its serializer's key). */
export const TIMELINE_VIEW_TYPE = "autodev.timeline";

/** A fresh script nonce: 128 random bits, base64. */
function makeNonce(): string {
  return randomBytes(16).toString("base64");
}

/** Folders the webview may load from: the webview bundle, the copied codicons, and media/. */
function timelineResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [
    vscode.Uri.joinPath(extensionUri, "dist", "webview"),
    vscode.Uri.joinPath(extensionUri, "dist", "media"),
    vscode.Uri.joinPath(extensionUri, "media"),
  ];
}

/** Webview options for the timeline (panel or view). */
export function timelineWebviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableCommandUris: false,
    enableForms: false,
    localResourceRoots: timelineResourceRoots(extensionUri),
  };
}

/** The Content-Security-Policy for one render. */
function timelineCsp(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

/** What differs between this extension's webview pages: stylesheet, script, root element, title. */
export interface WebviewPage {
  /** File name under media/ ("timeline.css"). */
  readonly stylesheet: string;
  /** Bundle name under dist/webview/ ("timeline.js"). */
  readonly script: string;
  readonly rootId: string;
  readonly rootClass: string;
  /** The (translated) title. */
  readonly title: string;
}

/**
 * The HTML document of one of the extension's webview pages, with a new nonce each call: the CSP
 * above, the codicons and the page's stylesheet, an empty root carrying the translation bundle,
 * and the page's script. Nothing from a state file is ever part of it.
 */
export function webviewDocument(webview: vscode.Webview, extensionUri: vscode.Uri, page: WebviewPage): string {
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
<link rel="stylesheet" href="${attr(uri("media", page.stylesheet))}">
<title>${attr(page.title)}</title>
</head>
<body>
<div id="${attr(page.rootId)}" class="${attr(page.rootClass)}" data-l10n="${attr(JSON.stringify(vscode.l10n.bundle ?? {}))}"></div>
<script nonce="${attr(nonce)}" src="${attr(uri("dist", "webview", page.script))}"></script>
</body>
</html>`;
}

/** The HTML document of the timeline webview, with a new nonce each time it is called. */
export function timelineHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  return webviewDocument(webview, extensionUri, {
    stylesheet: "timeline.css",
    script: "timeline.js",
    rootId: "timeline-root",
    rootClass: "timeline-root",
    title: vscode.l10n.t("AutoDev Ledger Timeline"),
  });
}
