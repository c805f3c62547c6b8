// Turns a view into PNG or JPEG bytes with sharp (librsvg draws the SVG). A smaller image is
// drawn at its own size rather than drawn big and shrunk, which is what makes a 1280 px JPEG
// cheap. Results are cached by the view's content: the live view and repeated screenshots
// of an unchanged screen cost a hash, and concurrent requests for one frame share one render.
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { scaledSize } from '../../input-checks.js';
import type { Screenshot, ScreenshotOptions } from '../../types.js';
import { SIM_SCREEN } from '../app-schema.js';
import type { SimView } from '../view.js';
import { viewToSvg } from './svg.js';

export interface RendererOptions {
  /** Encoded images kept; each is 50–200 KB. */
  cacheEntries?: number;
}

export class ScreenRenderer {
  private readonly cache = new Map<string, Promise<Screenshot>>();
  private readonly limit: number;

  constructor(options: RendererOptions = {}) {
    this.limit = options.cacheEntries ?? 48;
  }

  render(view: SimView, options: ScreenshotOptions = {}): Promise<Screenshot> {
    const format = options.format ?? 'png';
    const size = scaledSize(SIM_SCREEN, options.maxEdge);
    const quality = options.quality ?? 80;
    const key = createHash('sha1').update(JSON.stringify(view)).update(`|${format}|${size.width}|${quality}`).digest('base64');
    const hit = this.cache.get(key);
    if (hit) {
      // Refresh its place: the map's order is the eviction order.
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit;
    }
    const rendering = this.draw(view, format, size, quality);
    this.cache.set(key, rendering);
    rendering.catch(() => this.cache.delete(key));
    while (this.cache.size > this.limit) this.cache.delete(this.cache.keys().next().value as string);
    return rendering;
  }

  private async draw(view: SimView, format: 'png' | 'jpeg', size: { width: number; height: number }, quality: number): Promise<Screenshot> {
    const image = sharp(Buffer.from(viewToSvg(view, size.width, size.height)));
    // Level 3 without adaptive filtering: a third of the default's time for flat UI colours,
    // at a size within a few percent of the best.
    const data = format === 'png' ? await image.png({ compressionLevel: 3, adaptiveFiltering: false }).toBuffer() : await image.flatten({ background: '#ffffff' }).jpeg({ quality }).toBuffer();
    return { data, format, width: size.width, height: size.height };
  }
}
