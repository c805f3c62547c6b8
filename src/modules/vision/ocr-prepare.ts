// A screen made easy for Tesseract. Its binarisation is global (Otsu) and expects dark text
// on a light page, while a phone screen mixes white text on coloured bars and buttons, gray
// text on white, and text under a dialog's dimming. So, before recognition:
// 1. Background: a median over a window wider than any glyph stroke (sharp, native, on a
//    quarter-size copy), so the text itself does not count.
// 2. Polarity: where the background is dark (a toolbar, a filled button), the pixels are
//    inverted, so every glyph ends up darker than its surroundings.
// 3. Local contrast: each pixel is set by how much darker it is than its background, so text
//    on any background, dimmed or not, becomes near-black on white.
// (sharp answers three channels for a one-channel raw input unless told `greyscale()`.)
import sharp from 'sharp';
import type { GrayImage } from './gray-image.js';

export interface PrepareOptions {
  /** Scale applied before recognition (text 34 px tall reads as well at 0.75×, and faster). */
  scale: number;
}

/** The background is a median over about this many screen pixels: wider than a glyph's strokes, so text does not count. */
const BACKGROUND_WINDOW = 64;
/** The background is estimated at this fraction of the size (a median is costly at full size). */
const BACKGROUND_SCALE = 0.25;
/** Below this gray level a background counts as dark. */
const DARK_BACKGROUND = 118;
/** A background that changes by more than EDGE_STEP gray levels within EDGE_REACH pixels of the quarter-size copy is a shape's rim. */
const EDGE_REACH = 2;
const EDGE_STEP = 60;
/** How strongly a difference from the background darkens a pixel. */
const GAIN = 3;

export async function prepareForOcr(image: GrayImage, options: PrepareOptions): Promise<GrayImage> {
  const raw = { width: image.width, height: image.height, channels: 1 as const };
  const small = { width: Math.max(1, Math.round(image.width * BACKGROUND_SCALE)), height: Math.max(1, Math.round(image.height * BACKGROUND_SCALE)) };
  const window = Math.max(3, Math.round(BACKGROUND_WINDOW * BACKGROUND_SCALE) | 1);
  // Three pipelines, not one: sharp runs its operations in a fixed order (resize once, then
  // the rest), whatever order they are called in.
  const shrunk = await sharp(image.data, { raw }).resize(small.width, small.height, { kernel: 'linear' }).greyscale().raw().toBuffer();
  const median = await sharp(shrunk, { raw: { ...small, channels: 1 } }).median(window).greyscale().raw().toBuffer();
  const smallRaw = { raw: { ...small, channels: 1 as const } };
  const background = await sharp(median, smallRaw).resize(image.width, image.height, { kernel: 'linear' }).greyscale().raw().toBuffer();
  // Where the background itself changes (the rim of a button or a bar), the change would read
  // as a glyph ("C" and ")" at a button's round ends): such pixels are left blank.
  const rim = rimOf(median, small.width, small.height);
  const rimFull = await sharp(rim, smallRaw).resize(image.width, image.height, { kernel: 'nearest' }).greyscale().raw().toBuffer();
  const out = new Uint8Array(image.data.length);
  for (let i = 0; i < out.length; i++) {
    if (rimFull[i] !== 0) {
      out[i] = 255;
      continue;
    }
    const dark = background[i] < DARK_BACKGROUND;
    const p = dark ? 255 - image.data[i] : image.data[i];
    const bg = dark ? 255 - background[i] : background[i];
    const diff = bg - p;
    out[i] = diff <= 0 ? 255 : Math.max(0, 255 - diff * GAIN);
  }
  if (options.scale === 1) return { width: image.width, height: image.height, data: out };
  const width = Math.max(1, Math.round(image.width * options.scale));
  const height = Math.max(1, Math.round(image.height * options.scale));
  const scaled = await sharp(out, { raw }).resize(width, height, { kernel: 'linear' }).greyscale().raw().toBuffer();
  return { width, height, data: new Uint8Array(scaled.buffer, scaled.byteOffset, scaled.length) };
}

/** 255 where the background spans more than EDGE_STEP gray levels within EDGE_REACH pixels. */
function rimOf(background: Uint8Array, width: number, height: number): Uint8Array {
  const rim = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let low = 255;
      let high = 0;
      for (let yy = Math.max(0, y - EDGE_REACH); yy <= Math.min(height - 1, y + EDGE_REACH); yy++) {
        for (let xx = Math.max(0, x - EDGE_REACH); xx <= Math.min(width - 1, x + EDGE_REACH); xx++) {
          const v = background[yy * width + xx];
          if (v < low) low = v;
          if (v > high) high = v;
        }
      }
      rim[y * width + x] = high - low > EDGE_STEP ? 255 : 0;
    }
  }
  return rim;
}
