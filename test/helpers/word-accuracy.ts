// Word accuracy of OCR against the text a simulated screen drew. A word is a run of
// non-space characters with its surrounding punctuation trimmed ("€9.50" stays, "·" and "•••"
// are not words); words are compared exactly, case included. Accuracy counts a word right
// when the OCR output holds it (each output word answers for one drawn word at most), over
// the larger of the two counts, so both a missed word and an invented one cost.

const EDGE_PUNCTUATION = /^[^\p{L}\p{N}€$£]+|[^\p{L}\p{N}%]+$/gu;

export function wordsOf(text: string): string[] {
  return text
    .split(/\s+/)
    .map((w) => w.replace(EDGE_PUNCTUATION, ''))
    .filter((w) => /[\p{L}\p{N}]/u.test(w));
}

export interface WordScore {
  expected: number;
  read: number;
  correct: number;
  accuracy: number;
  missed: string[];
  invented: string[];
}

export function wordAccuracy(expectedTexts: string[], readTexts: string[]): WordScore {
  const expected = expectedTexts.flatMap(wordsOf);
  const read = readTexts.flatMap(wordsOf);
  const pool = new Map<string, number>();
  for (const w of read) pool.set(w, (pool.get(w) ?? 0) + 1);
  const missed: string[] = [];
  for (const w of expected) {
    const left = pool.get(w) ?? 0;
    if (left > 0) pool.set(w, left - 1);
    else missed.push(w);
  }
  const invented = [...pool.entries()].flatMap(([w, n]) => Array<string>(n).fill(w));
  const correct = expected.length - missed.length;
  const denominator = Math.max(expected.length, read.length);
  return { expected: expected.length, read: read.length, correct, accuracy: denominator === 0 ? 1 : correct / denominator, missed, invented };
}
