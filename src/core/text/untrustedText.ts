/**
 * The one definition of the characters that text from state files may not carry raw onto any
 * surface (terminal, tree, Problems, graph syntax, report, language-model answer): characters
 * that act instead of showing — C0 and C1 controls and DEL (cursor moves, ESC and OSC 52, CSI),
 * line and paragraph separators, bidi marks, embeddings, overrides and isolates (they reorder
 * the text around them), and invisible format characters (zero-width space and joiners, word
 * joiner and invisible operators, the BOM, the soft hyphen, interlinear annotation marks and
 * the tag characters U+E0000–E007F, which spell text a person cannot see but a model reads).
 * Each surface picks how a hidden character is replaced; which characters are hidden is
 * decided only here.
 */

/** True for a code point that changes or hides text instead of showing (see the module comment). */
export function isHiddenCodePoint(cp: number): boolean {
  if (cp < 0x20) return true; // C0, tab, newline and CR included
  if (cp < 0x7f) return false;
  if (cp <= 0x9f) return true; // DEL and C1 (0x9b is a one-byte CSI)
  if (cp < 0xad) return false;
  if (cp === 0xad || cp === 0x061c || cp === 0x180e) return true; // soft hyphen, Arabic letter mark, Mongolian vowel separator
  if (cp < 0x200b) return false;
  if (cp <= 0x200f) return true; // zero-width space, non-joiner, joiner; LRM, RLM
  if (cp >= 0x2028 && cp <= 0x202e) return true; // line and paragraph separators; LRE RLE PDF LRO RLO
  if (cp >= 0x2060 && cp <= 0x206f) return cp !== 0x2065; // word joiner, invisible operators, LRI RLI FSI PDI, deprecated format
  if (cp === 0xfeff || (cp >= 0xfff9 && cp <= 0xfffb)) return true; // BOM / zero-width no-break space; annotation marks
  return cp >= 0xe0000 && cp <= 0xe007f; // tag characters
}

/** True for a hidden character that is a format character rather than a control (invisible, not acting on a terminal). */
export function isInvisibleFormat(cp: number): boolean {
  return isHiddenCodePoint(cp) && cp > 0x9f && cp !== 0x2028 && cp !== 0x2029;
}

/**
 * `s` with every hidden code point replaced by `replace(cp)`; with `keepLayout`, newline and tab
 * are kept (for whole messages we composed). Text with nothing hidden comes back as it was.
 */
export function replaceHidden(s: string, replace: (cp: number) => string, keepLayout = false): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    let cp = s.charCodeAt(i);
    let width = 1;
    if (cp === 0xdb40 && i + 1 < s.length) {
      const lo = s.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        width = 2;
      }
    }
    if (!isHiddenCodePoint(cp) || (keepLayout && (cp === 0x0a || cp === 0x09))) {
      i += width - 1;
      continue;
    }
    out += s.slice(from, i) + replace(cp);
    i += width - 1;
    from = i + 1;
  }
  return from === 0 ? s : out + s.slice(from);
}

/** A hidden character as a visible escape: `\n`, `\r`, `\t`, `\e`, `\x9b`, `\u202e`, `\u{e0041}`. */
export function escapeCodePoint(cp: number): string {
  switch (cp) {
    case 0x0a:
      return "\\n";
    case 0x0d:
      return "\\r";
    case 0x09:
      return "\\t";
    case 0x1b:
      return "\\e";
    default:
      if (cp <= 0xff) return `\\x${cp.toString(16).padStart(2, "0")}`;
      return cp <= 0xffff ? `\\u${cp.toString(16).padStart(4, "0")}` : `\\u{${cp.toString(16)}}`;
  }
}

/** A hidden character as a visible mark for a rendered view: `[U+202E]`, `[U+E0041]`. */
export function markCodePoint(cp: number): string {
  return `[U+${cp.toString(16).toUpperCase().padStart(4, "0")}]`;
}

/** Every hidden character as a visible escape (terminal, Problems, output channel); see {@link escapeCodePoint}. */
export function escapeHidden(s: string, keepLayout = false): string {
  return replaceHidden(s, escapeCodePoint, keepLayout);
}

/** Every hidden character as one space (labels and graph syntax: one line, nothing reordered). */
export function blankHidden(s: string): string {
  return replaceHidden(s, () => " ");
}

/** One line for a label (a tree row, a quick pick): hidden characters as spaces, runs of blanks collapsed, cut at `max` with an ellipsis. */
export function labelText(s: string, max = 120): string {
  const one = blankHidden(s).replace(/\s+/g, " ").trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/**
 * Text for a language model inside a JSON answer: invisible format characters (zero-width, bidi,
 * tags) removed, so the model reads what a person sees; C0 controls kept for the JSON encoder to
 * escape; DEL, C1 and the separators (which JSON leaves raw) as visible escapes.
 */
export function textForModel(s: string): string {
  return replaceHidden(s, (cp) =>
    cp < 0x20 ? String.fromCharCode(cp) : isInvisibleFormat(cp) ? "" : escapeCodePoint(cp),
  );
}
