// Turns a view into PNG or JPEG bytes with sharp (librsvg draws the SVG). The screen is drawn
// in horizontal bands, each cached by its own SVG: after a tap or a typed letter only the
// bands that changed are drawn again, and the picture is assembled from raw pixels and
// encoded once. Encoded images are cached too, by the view's content: repeated screenshots
// of an unchanged screen (the live view) cost a hash, and concurrent requests share a render.
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { scaledSize } from '../../input-checks.js';
import type { Screenshot, ScreenshotOptions } from '../../types.js';
import { SIM_SCREEN } from '../app-schema.js';
import type { SimView } from '../view.js';
import { PromiseLru } from './promise-lru.js';
import { bandSvg, type Layer, viewLayers } from './svg.js';

const BAND_HEIGHT = 240;
const BANDS = SIM_SCREEN.height / BAND_HEIGHT;

export interface RendererOptions {
  /** Encoded images kept; each is 50–200 KB. */
  imageEntries?: number;
  /** Raw bands kept; each is at most 1080×240 RGB, 760 KB (the default keeps six full-size screens). */
  bandEntries?: number;
}

const hash = (text: string) => createHash('sha1').update(text).digest('base64');

export class ScreenRenderer {
  private readonly images: PromiseLru<Screenshot>;
  private readonly bands: PromiseLru<Buffer>;

  constructor(options: RendererOptions = {}) {
    this.images = new PromiseLru(options.imageEntries ?? 48);
    this.bands = new PromiseLru(options.bandEntries ?? BANDS * 6);
  }

  render(view: SimView, options: ScreenshotOptions = {}): Promise<Screenshot> {
    const format = options.format ?? 'png';
    const size = scaledSize(SIM_SCREEN, options.maxEdge);
    const quality = options.quality ?? 80;
    const key = hash(`${JSON.stringify(view)}|${format}|${size.width}|${quality}`);
    return this.images.get(key, () => this.draw(view, format, size, quality));
  }

  private band(layers: Layer[], index: number, scale: number): Promise<Buffer> {
    const svg = bandSvg(layers, index * BAND_HEIGHT, BAND_HEIGHT, scale);
    return this.bands.get(hash(svg), () => sharp(Buffer.from(svg)).flatten({ background: '#ffffff' }).raw().toBuffer());
  }

  private async draw(view: SimView, format: 'png' | 'jpeg', size: { width: number; height: number; scale: number }, quality: number): Promise<Screenshot> {
    const layers = viewLayers(view);
    // Bands are drawn at the output size when it cuts them into whole rows (1280, 1200, 640,
    // any multiple of 20 px); other sizes are drawn full and resized.
    const bandRows = BAND_HEIGHT * size.scale;
    const direct = Number.isInteger(bandRows) && Number.isInteger(SIM_SCREEN.width * size.scale);
    const scale = direct ? size.scale : 1;
    const bands = await Promise.all(Array.from({ length: BANDS }, (_, i) => this.band(layers, i, scale)));
    let image = sharp(Buffer.concat(bands), { raw: { width: Math.round(SIM_SCREEN.width * scale), height: Math.round(SIM_SCREEN.height * scale), channels: 3 } });
    if (!direct) image = image.resize(size.width, size.height);
    // PNG level 3 without adaptive filtering: a third of the default's time for flat UI
    // colours, at a size within a few percent of the best.
    const data = format === 'png' ? await image.png({ compressionLevel: 3, adaptiveFiltering: false }).toBuffer() : await image.jpeg({ quality }).toBuffer();
    return { data, format, width: size.width, height: size.height };
  }
}
