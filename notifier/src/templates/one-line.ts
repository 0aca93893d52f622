/**
 * A name or a bet's title as a line of a message: its line breaks, tabs and other control
 * characters become single spaces. A first name that went on over several lines could otherwise
 * write lines of its own in a plain-text email or a text message, a link of its choosing above
 * the real one among them.
 */
export function oneLine(text: string): string {
  return text
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
}
