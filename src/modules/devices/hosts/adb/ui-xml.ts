// Reads `uiautomator dump` XML into the UI tree. Every <node> becomes an element, in
// document order (a later node is drawn on top of an earlier one); its id is its index path
// from the root ("0.2.1"), stable while the screen does not change. Android's serializer
// writes a newline or tab inside an attribute as a character reference (`&#10;`), and older
// builds write an emoji as two references to its UTF-16 halves: every reference is decoded,
// in one pass with the five named entities, so `&amp;#10;` stays the literal text `&#10;`.
import { XMLParser } from 'fast-xml-parser';
import { DeviceHostFaultError } from '../errors.js';
import type { Bounds, UiElement } from '../types.js';

interface XmlNode {
  node?: XmlNode[];
  [attribute: string]: unknown;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseAttributeValue: false,
  trimValues: false,
  // Entities are decoded below, all kinds in one pass (the parser's own would leave `&#10;`).
  processEntities: false,
  isArray: (name) => name === 'node',
});

const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function codePoint(n: number, raw: string): string {
  return Number.isInteger(n) && n >= 0 && n <= 0x10ffff ? String.fromCodePoint(n) : raw;
}

/** `&amp;`, `&#10;`, `&#x1F600;`, … → the characters; anything else is left as written. */
export function decodeReferences(value: string): string {
  return value.replace(/&(#[0-9]{1,7}|#x[0-9a-fA-F]{1,6}|amp|lt|gt|quot|apos);/g, (raw, ref: string) => {
    if (ref.startsWith('#x')) return codePoint(Number.parseInt(ref.slice(2), 16), raw);
    if (ref.startsWith('#')) return codePoint(Number(ref.slice(1)), raw);
    return NAMED[ref] ?? raw;
  });
}

const EDITABLE_CLASS = /(EditText|AutoCompleteTextView|SearchAutoComplete)$/;

function parseBounds(raw: unknown): Bounds {
  const m = /^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$/.exec(String(raw ?? ''));
  return m ? { left: Number(m[1]), top: Number(m[2]), right: Number(m[3]), bottom: Number(m[4]) } : { left: 0, top: 0, right: 0, bottom: 0 };
}

function attribute(node: XmlNode, name: string): string {
  const value = node[`@${name}`];
  return typeof value === 'string' ? decodeReferences(value) : '';
}

export function parseUiDump(xml: string): UiElement[] {
  let document: { hierarchy?: XmlNode };
  try {
    document = parser.parse(xml) as { hierarchy?: XmlNode };
  } catch (error) {
    throw new DeviceHostFaultError(`The device's UI dump is not valid XML: ${(error as Error).message}`);
  }
  if (!document.hierarchy) throw new DeviceHostFaultError('The device answered a UI dump without a <hierarchy>.');
  const elements: UiElement[] = [];
  const walk = (nodes: XmlNode[] | undefined, path: number[]) => {
    (nodes ?? []).forEach((node, i) => {
      const here = [...path, i];
      const cls = attribute(node, 'class');
      elements.push({
        element_id: here.join('.'),
        class: cls,
        text: attribute(node, 'text'),
        resource_id: attribute(node, 'resource-id'),
        content_desc: attribute(node, 'content-desc'),
        bounds: parseBounds(node['@bounds']),
        clickable: attribute(node, 'clickable') === 'true',
        editable: EDITABLE_CLASS.test(cls),
        scrollable: attribute(node, 'scrollable') === 'true',
        focused: attribute(node, 'focused') === 'true',
      });
      walk(node.node, here);
    });
  };
  walk(document.hierarchy.node, []);
  return elements;
}

/** The topmost clickable element under a point (the last one in document order). */
export function elementAt(elements: UiElement[], x: number, y: number): UiElement | null {
  for (let i = elements.length - 1; i >= 0; i--) {
    const { bounds: b, clickable, editable } = elements[i];
    if ((clickable || editable) && x >= b.left && x < b.right && y >= b.top && y < b.bottom) return elements[i];
  }
  return null;
}
