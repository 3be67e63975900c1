/**
 * The only way the timeline builds DOM: elements with text set through
 * `textContent`, attributes from an allow-list (no event handlers, no URLs,
 * no inline style), and codicons by fixed names. No HTML string ever meets
 * the parser, so ledger text cannot become markup.
 */

/** Attribute names the timeline may set (values are plain strings, never parsed). */
const ALLOWED_ATTRS =
  /^(?:role|id|tabindex|type|placeholder|value|min|max|step|list|autocomplete|spellcheck|inputmode|title|for|name|aria-[a-z]+|data-[a-z-]+)$/;

/** Options of {@link h}. */
export interface ElementOptions {
  readonly cls?: string;
  readonly text?: string;
  readonly title?: string;
  readonly attrs?: Readonly<Record<string, string>>;
}

/** Sets an allowed attribute; throws for anything that could run code or load a resource. */
export function setAttr(el: Element, name: string, value: string): void {
  if (!ALLOWED_ATTRS.test(name)) throw new Error(`attribute not allowed: ${name}`);
  el.setAttribute(name, value);
}

/** Creates an element; `text` goes in as text, never as markup. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  opts: ElementOptions = {},
  children: readonly Node[] = [],
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (opts.cls) el.className = opts.cls;
  if (opts.text !== undefined) el.textContent = opts.text;
  if (opts.title !== undefined) el.title = opts.title;
  for (const [k, v] of Object.entries(opts.attrs ?? {})) setAttr(el, k, v);
  for (const c of children) el.appendChild(c);
  return el;
}

/** A codicon by name (names are constants of this code, checked anyway). */
export function icon(name: string, extra = ""): HTMLSpanElement {
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`bad icon name: ${name}`);
  const el = document.createElement("span");
  el.className = `codicon codicon-${name}${extra ? ` ${extra}` : ""}`;
  el.setAttribute("aria-hidden", "true");
  return el;
}

/** Switches the codicon of an icon element. */
export function setIcon(el: HTMLElement, name: string, extra = ""): void {
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`bad icon name: ${name}`);
  const cls = `codicon codicon-${name}${extra ? ` ${extra}` : ""}`;
  if (el.className !== cls) el.className = cls;
}

/** Sets text only when it changed (cheap re-binding of recycled rows). */
export function setText(el: HTMLElement, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

/** A button with a codicon and an accessible name; `label` is shown unless `iconOnly`. */
export function button(
  iconName: string,
  label: string,
  opts: { iconOnly?: boolean; cls?: string; title?: string } = {},
): HTMLButtonElement {
  const b = h("button", {
    cls: `tl-button${opts.iconOnly ? " icon-only" : ""}${opts.cls ? ` ${opts.cls}` : ""}`,
    title: opts.title ?? label,
    attrs: { type: "button" },
  });
  b.appendChild(icon(iconName));
  if (opts.iconOnly) b.setAttribute("aria-label", label);
  else b.appendChild(h("span", { text: label }));
  return b;
}

/** A toggle button (aria-pressed) with a codicon. */
export function toggle(iconName: string, label: string, pressed: boolean): HTMLButtonElement {
  const b = button(iconName, label, { iconOnly: true, cls: "tl-toggle" });
  setPressed(b, pressed);
  return b;
}

/** Reflects a toggle's state. */
export function setPressed(b: HTMLButtonElement, pressed: boolean): void {
  b.setAttribute("aria-pressed", String(pressed));
  b.classList.toggle("checked", pressed);
}

/** Removes every child. */
export function clear(el: Element): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}

/** An `<option>` with text. */
export function option(value: string, label: string, selected = false): HTMLOptionElement {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = label;
  o.selected = selected;
  return o;
}
