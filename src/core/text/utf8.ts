/**
 * Strict UTF-8 decoding, as Python's codec decodes: invalid bytes are an answer (null), not
 * replacement characters. Every source that reads text Python wrote decodes through it.
 */

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Decodes UTF-8 strictly (as Python's codec does); returns null on invalid bytes. */
export function decodeUtf8Strict(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}
