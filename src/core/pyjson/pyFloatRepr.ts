/**
 * Python's text form of a float.
 *
 * CPython prints the shortest digit string that reads back as the same double
 * (the digits JavaScript's `Number#toString` also picks), but lays them out
 * its own way: scientific notation when the decimal exponent is below -4 or at
 * least 16 (`1e-05`, `1e+16`, `1.5e+300`), with a signed exponent of at least
 * two digits, and a trailing `.0` on integral values (`2.0`, `-0.0`).
 */

/**
 * Python `repr(x)` for a float: `0.1`, `2.0`, `-0.0`, `1e-05`, `1e+16`,
 * `1234567890123456.0`, `5e-324`; non-finite values give `nan`, `inf`, `-inf`.
 */
export function pyFloatRepr(x: number): string {
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  if (x !== x) return "nan";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  const text = String(x);
  const magnitude = x < 0 ? -x : x;
  // In [1e-4, 1e16) JavaScript writes plain decimals, exactly as Python does,
  // except that Python marks integral values with ".0".
  if (magnitude >= 1e-4 && magnitude < 1e16) {
    return text.indexOf(".") >= 0 ? text : text + ".0";
  }
  return layOutShortestDigits(text);
}

/**
 * The float as the `json` module writes it: like {@link pyFloatRepr} for
 * finite values, and `NaN`, `Infinity`, `-Infinity` otherwise.
 */
export function pyJsonFloat(x: number): string {
  if (x !== x) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  return pyFloatRepr(x);
}

/** Re-lays out JavaScript's shortest form (`-1.5e-7`, `1e+21`, `0.00001`) the way Python does. */
function layOutShortestDigits(jsText: string): string {
  let text = jsText;
  let sign = "";
  if (text.charCodeAt(0) === 0x2d) {
    sign = "-";
    text = text.slice(1);
  }
  const e = text.indexOf("e");
  const mantissa = e >= 0 ? text.slice(0, e) : text;
  const exponent = e >= 0 ? Number(text.slice(e + 1)) : 0;
  const point = mantissa.indexOf(".");
  let digits = point >= 0 ? mantissa.slice(0, point) + mantissa.slice(point + 1) : mantissa;
  // Position of the decimal point relative to the start of `digits`.
  let pointAt = (point >= 0 ? point : mantissa.length) + exponent;
  let lead = 0;
  while (lead < digits.length - 1 && digits.charCodeAt(lead) === 0x30) lead++;
  digits = digits.slice(lead);
  pointAt -= lead;
  let end = digits.length;
  while (end > 1 && digits.charCodeAt(end - 1) === 0x30) end--;
  digits = digits.slice(0, end);

  const sciExponent = pointAt - 1;
  if (sciExponent < -4 || sciExponent >= 16) {
    const fraction = digits.length > 1 ? "." + digits.slice(1) : "";
    const absExponent = sciExponent < 0 ? -sciExponent : sciExponent;
    const expDigits = absExponent < 10 ? "0" + absExponent : String(absExponent);
    return `${sign}${digits[0]}${fraction}e${sciExponent < 0 ? "-" : "+"}${expDigits}`;
  }
  if (pointAt <= 0) return `${sign}0.${"0".repeat(-pointAt)}${digits}`;
  if (pointAt >= digits.length) return `${sign}${digits}${"0".repeat(pointAt - digits.length)}.0`;
  return `${sign}${digits.slice(0, pointAt)}.${digits.slice(pointAt)}`;
}
