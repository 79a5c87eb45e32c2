// Blind picture addresses. Every showing of a picture — one rater, one screen, one side — gets
// its own address, an HMAC of the study's secret and that showing. Addresses therefore carry
// no order (nothing numbered run by run), differ between raters, and differ between a pair's
// first showing and its repeat; only the server, which holds the secret, can map one back.
import { createHmac } from 'node:crypto';

/** The address of the picture at display position `pos` of a rater's screen `seq`. */
export function pictureAddress(secret: string, rater: string, seq: number, pos: number): string {
  return createHmac('sha256', secret)
    .update(`${rater}\u0000${seq}\u0000${pos}`)
    .digest('base64url')
    .slice(0, 22);
}

/** Address → showing, for one rater's screens; built once per rater and kept. */
export class AddressBook {
  readonly #secret: string;
  readonly #byRater = new Map<string, Map<string, { seq: number; pos: number }>>();
  constructor(secret: string) {
    this.#secret = secret;
  }
  /** The showing behind an address of this rater, or null for an address nobody was given. */
  lookup(
    rater: string,
    address: string,
    screens: () => readonly { seq: number; items: readonly unknown[] }[],
  ): { seq: number; pos: number } | null {
    let book = this.#byRater.get(rater);
    if (!book) {
      book = new Map();
      for (const t of screens())
        for (let pos = 0; pos < t.items.length; pos++)
          book.set(pictureAddress(this.#secret, rater, t.seq, pos), { seq: t.seq, pos });
      this.#byRater.set(rater, book);
    }
    return book.get(address) ?? null;
  }
}
