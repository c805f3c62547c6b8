// What `uiautomator dump` writes for the fake device: the simulated screen's elements as a
// real dump's <node> tree, nested by containment inside layouts, with a real dump's
// attributes (the password field's text already masked, as Android does).
import { XMLBuilder } from 'fast-xml-parser';
import { buildView, isToggle, type ViewElement } from '../../../src/modules/devices/hosts/sim/view.js';
import { type FakeAndroidDevice, NATURAL_SIZE } from './device.js';
import { boundsToDisplay, displaySize, type Rotation } from './rotation.js';

interface XmlNode {
  [key: string]: string | XmlNode[] | undefined;
  node?: XmlNode[];
}

// Real dumps write every attribute as name="value", "true" included (no bare boolean attributes).
const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@', format: false, suppressEmptyNode: true, suppressBooleanAttributes: false });

function attributes(e: ViewElement, pkg: string, index: number, rotation: Rotation): XmlNode {
  const b = boundsToDisplay(rotation, NATURAL_SIZE, e.bounds);
  return {
    '@index': String(index),
    '@text': e.text,
    '@resource-id': e.resource_id,
    '@class': e.class,
    '@package': pkg,
    '@content-desc': e.content_desc,
    '@checkable': String(isToggle(e)),
    '@checked': String(e.checked === true),
    '@clickable': String(e.clickable),
    '@enabled': 'true',
    '@focusable': String(e.clickable || e.editable),
    '@focused': String(e.focused),
    '@scrollable': String(e.scrollable),
    '@long-clickable': 'false',
    '@password': String(e.password),
    '@selected': 'false',
    '@bounds': `[${b.left},${b.top}][${b.right},${b.bottom}]`,
  };
}

const CONTAINER = /(Layout|ViewGroup|RecyclerView)$/;

function inside(a: ViewElement, b: ViewElement): boolean {
  return a.bounds.left >= b.bounds.left && a.bounds.top >= b.bounds.top && a.bounds.right <= b.bounds.right && a.bounds.bottom <= b.bounds.bottom;
}

export function uiDumpXml(device: FakeAndroidDevice): string {
  const view = buildView(device.world());
  const rotation = device.behaviour.rotation;
  const screen = displaySize(rotation, NATURAL_SIZE);
  const root: XmlNode = { '@index': '0', '@text': '', '@resource-id': '', '@class': 'android.widget.FrameLayout', '@package': view.package, '@content-desc': '', '@bounds': `[0,0][${screen.width},${screen.height}]`, node: [] };
  // Open containers, innermost last: each element goes into the innermost one that holds it.
  const open: { element: ViewElement; node: XmlNode }[] = [];
  for (const e of view.elements) {
    while (open.length && !inside(e, open[open.length - 1].element)) open.pop();
    const parent = open.length ? open[open.length - 1].node : root;
    parent.node ??= [];
    const node = attributes(e, view.package, parent.node.length, rotation);
    parent.node.push(node);
    if (CONTAINER.test(e.class)) open.push({ element: e, node });
  }
  const xml = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>${builder.build({ hierarchy: { '@rotation': String(rotation), node: [root] } })}`;
  // The builder leaves control characters raw (format: false, so none of its own); Android's
  // serializer writes them inside attributes as character references.
  return device.behaviour.characterReferences ? xml.replace(/[\n\r\t]/g, (c) => `&#${c.charCodeAt(0)};`) : xml;
}
