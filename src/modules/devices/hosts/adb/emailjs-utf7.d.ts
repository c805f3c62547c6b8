// emailjs-utf7 ships no types: the two functions the driver and its fake use.
declare module 'emailjs-utf7' {
  /** RFC 3501 modified UTF-7 (IMAP): printable ASCII as it is, `&` as `&-`, the rest as `&…-`. */
  export function imapEncode(text: string): string;
  export function imapDecode(text: string): string;
}
