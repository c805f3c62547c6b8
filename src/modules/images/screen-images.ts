// The image library meets a device screen: cut a region of the screen into the library
// (`template_crop`), find a library image on the screen (`device_find_image`, the SDK's
// `find_image`, the block steps `tap {image_id}` and `if_image`), and read the screen's text
// from the UI tree or, where the tree is silent, from the pixels (`device_read_text`). Every
// transport calls these, so a tool and a macro find the same match on the same screen.
import sharp from 'sharp';
import type { DeviceDriver } from '../devices/index.js';
import { checkRegion, decodeGray, DEFAULT_MATCH_THRESHOLD, type EngineState, findTemplate, OcrReader, type PixelBounds, sharedMatchPool, type TemplateMatch, type TemplateMatcher, textLinesFromTree, type TextLine } from '../vision/index.js';
import type { ImageLibrary, ImageRecord, LibraryOwner } from './library.js';
import { TemplateCache } from './template-cache.js';


export interface CropInput {
  x: number;
  y: number;
  w: number;
  h: number;
  name: string;
}

export interface FindImageInput {
  imageId: string;
  /** 0..1; default DEFAULT_MATCH_THRESHOLD. */
  threshold?: number;
}

export interface ReadTextInput {
  region?: PixelBounds;
  /** Read the pixels (OCR) instead of the UI tree. */
  ocr?: boolean;
}

/** The full-size screen, in device pixels, as PNG (lossless: a crop must hold exactly what the screen showed). */
const fullScreen = (driver: DeviceDriver) => driver.screenshot({ format: 'png' });

export class ScreenImages {
  private readonly templates: TemplateCache;

  constructor(
    private readonly library: ImageLibrary,
    private readonly ocr: OcrReader = new OcrReader(),
    /** Where matches run: the process's pool (the runs thread's relays to the API thread's). */
    private readonly matcher: TemplateMatcher = sharedMatchPool(),
  ) {
    this.templates = new TemplateCache(library);
  }

  /** Cuts x, y, w, h (device pixels, inside the screen) of the current screen into the library as a PNG, `source: "crop"`. */
  async crop(owner: LibraryOwner, driver: DeviceDriver, input: CropInput): Promise<ImageRecord> {
    const shot = await fullScreen(driver);
    const region = { left: input.x, top: input.y, right: input.x + input.w, bottom: input.y + input.h };
    checkRegion(region, shot.width, shot.height);
    const bytes = await sharp(shot.data).extract({ left: input.x, top: input.y, width: input.w, height: input.h }).png().toBuffer();
    return this.library.store(owner, { name: input.name, bytes, source: 'crop' });
  }

  /**
   * Every place the library image shows on the current screen at or above the threshold,
   * best first, `{x, y, w, h, score, scale}` in device pixels (x, y the top-left corner).
   * Someone else's or a missing id: 404.
   */
  async find(owner: LibraryOwner, driver: DeviceDriver, input: FindImageInput): Promise<TemplateMatch[]> {
    const threshold = input.threshold ?? DEFAULT_MATCH_THRESHOLD;
    const [template, shot] = await Promise.all([this.templates.get(owner, input.imageId), fullScreen(driver)]);
    const screen = await decodeGray(shot.data, 'screen');
    return findTemplate(screen, template, { threshold, matcher: this.matcher });
  }

  /**
   * The screen's text as lines with bounds, in reading order: from the UI tree (exact and
   * free), or with `ocr` from the pixels of the screen or of `region` (device pixels).
   */
  async readText(driver: DeviceDriver, input: ReadTextInput): Promise<TextLine[]> {
    if (!input.ocr) return textLinesFromTree(await driver.uiTree(), { region: input.region });
    const shot = await fullScreen(driver);
    if (input.region) checkRegion(input.region, shot.width, shot.height);
    return this.ocr.read(shot.data, { region: input.region });
  }

  /** The state of this process's vision engines, for /healthz: both load at their first use. */
  engines(): VisionEngines {
    return { template_matching: this.matcher.state ?? 'idle', ocr: this.ocr.state };
  }

  close(): Promise<void> {
    return this.ocr.close();
  }
}

export interface VisionEngines {
  template_matching: EngineState;
  ocr: EngineState;
}
