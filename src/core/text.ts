/**
 * Text for error messages that quote what a client sent. A message is read by a person and carried by transports
 * with rules of their own: grpc-js puts a status's details into the `grpc-message` header through `encodeURI`, which
 * throws on a lone UTF-16 surrogate, and HTTP/2 peers refuse header blocks past a few tens of KiB. So quoted input is
 * bounded (a prefix and the whole length) and every message that leaves the node is made safe: well-formed Unicode,
 * no control characters, a bounded length (`safeText`).
 */
import { toHex0x } from './bytes.ts';

/** Characters of a message at most once made safe (a message this long is already more than anyone reads). */
export const MAX_MESSAGE_CHARS = 1024;
/** Bytes of quoted binary input at most (as hex), and characters of quoted text input. */
export const QUOTED_BYTES = 32;
export const QUOTED_CHARS = 64;

/** What `safeText` replaces: control characters and lone surrogates. */
const UNSAFE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: this regex detects control characters
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Room kept for the "… (N characters)" ending, so a cut text stays within `max`. */
const ENDING_ROOM = 48;

/**
 * `text` made safe for any transport and any reader: lone surrogates become U+FFFD, control characters (C0, DEL,
 * C1, and the line and paragraph separators) become `\u{…}` escapes, and a text that would pass `max` characters is
 * cut with an ellipsis and its length. The result is at most `max` characters, and a safe text is returned as it is.
 */
export function safeText(text: string, max: number = MAX_MESSAGE_CHARS): string {
  if (text.length <= max && !UNSAFE.test(text)) return text;
  let out = '';
  let i = 0;
  for (; i < text.length && out.length <= max; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += text[i]! + text[i + 1]!;
        i++;
      } else out += '\ufffd';
    } else if (c >= 0xdc00 && c <= 0xdfff) out += '\ufffd';
    else if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029) out += `\\u{${c.toString(16)}}`;
    else out += text[i]!;
  }
  if (i >= text.length && out.length <= max) return out;
  let cut = out.slice(0, Math.max(max - ENDING_ROOM, 1));
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1); // not half of a pair
  return `${cut}… (${text.length} characters)`;
}

/** Binary input quoted for a message: its first `QUOTED_BYTES` bytes as 0x-hex, and its length when longer. */
export function quoteBytes(bytes: Uint8Array): string {
  if (bytes.length <= QUOTED_BYTES) return toHex0x(bytes);
  return `${toHex0x(bytes.subarray(0, QUOTED_BYTES))}… (${bytes.length} bytes)`;
}

/**
 * Text input quoted for a message: in double quotes, its first `QUOTED_CHARS` characters made safe, its length when
 * longer.
 */
export function quoteText(text: string): string {
  if (text.length <= QUOTED_CHARS) return `"${safeText(text)}"`;
  return `"${safeText(text.slice(0, QUOTED_CHARS))}"… (${text.length} characters)`;
}
