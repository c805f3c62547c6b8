// The vision module's front door: the two engines that see the screen where the UI tree is
// silent. Template matching (find-template.ts) says where a picture is; OCR (ocr/) reads text
// from pixels; ui-text.ts gives the text the UI tree already names, without OCR.
export { decodeGray, checkRegion, DEFAULT_DECODE_LIMITS, type DecodeLimits, type GrayImage, type PixelBounds } from './gray-image.js';
export { findTemplate, matchOptions, DEFAULT_MATCH_THRESHOLD, MAX_MATCHES_LIMIT, SCALE_LIMITS, type FindTemplateOptions, type ImageInput } from './find-template.js';
export { emptyTrace, MIN_TEMPLATE_SIDE, type MatchTrace, type TemplateMatch } from './template-match.js';
export { ImageTooLargeError, InvalidImageError, TemplateUnusableError, VisionUnavailableError, type ImageRole } from './errors.js';
export { OcrReader, installedEnglishModel, DEFAULT_MIN_CONFIDENCE, DEFAULT_OCR_SCALE, type OcrReaderOptions, type ReadTextOptions } from './ocr-reader.js';
export { textLinesFromTree, inReadingOrder, type LineBounds, type TextElement, type TextLine, type TreeTextOptions } from './text-lines.js';
