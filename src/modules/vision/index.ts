// The vision module's front door: the two engines that see the screen where the UI tree is
// silent. Template matching (find-template.ts) says where a picture is; OCR (ocr/) reads text
// from pixels; ui-text.ts gives the text the UI tree already names, without OCR.
export { decodeGray, checkRegion, DEFAULT_DECODE_LIMITS, type GrayImage, type PixelBounds } from './gray-image.js';
export { findTemplate, DEFAULT_MATCH_THRESHOLD } from './find-template.js';
export { type EngineState, MatchPool, sharedMatchPool, type TemplateMatcher } from './match-pool.js';
export { PortMatcher, serveMatches } from './match-relay.js';
export { emptyTrace, MIN_TEMPLATE_SIDE, type TemplateMatch } from './template-match.js';
export { ImageTooLargeError, InvalidImageError, TemplateUnusableError } from './errors.js';
export { OcrReader } from './ocr-reader.js';
export { textLinesFromTree, type TextElement, type TextLine } from './text-lines.js';
