// The map drawn as a graph: one column per step from the app's start (a screen's recorded
// path length), each screen a card with its thumbnail and title, each transition an arrow
// (solid for a tap, labelled with what was tapped; dashed for BACK). Wide maps scroll sideways. The same transitions are
// listed in a table beside it for keyboards and screen readers.
import { Box } from '@mantine/core';
import { thumbnailUrl, type MenuMap } from './maps-api';

const CARD = { width: 132, height: 214, thumb: 176 };
/** Characters of an edge's label before it is cut (the whole action is its tooltip). */
const LABEL_CHARS = 14;

type Action = MenuMap['transitions'][number]['action'];

/** What a transition did, in words: "tap Checkout", or "BACK". */
export function describeAction(action: Action): string {
  if (action.type === 'back') return 'BACK';
  const e = action.element;
  return `tap ${e?.text || e?.content_desc || e?.resource_id.replace(/^.*:id\//, '') || e?.class || 'an element'}`;
}

const cut = (text: string) => (text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text);
const GAP = { x: 96, y: 28 };

interface Placed {
  id: string;
  title: string;
  thumbnail: string | null;
  x: number;
  y: number;
}

export function layout(map: MenuMap): Map<string, Placed> {
  const columns = new Map<number, MenuMap['screens']>();
  for (const screen of map.screens) {
    const depth = screen.path.length;
    columns.set(depth, [...(columns.get(depth) ?? []), screen]);
  }
  const placed = new Map<string, Placed>();
  [...columns.keys()].sort((a, b) => a - b).forEach((depth, column) => {
    (columns.get(depth) ?? []).forEach((screen, row) => {
      placed.set(screen.screen_id, { id: screen.screen_id, title: screen.title, thumbnail: screen.thumbnail_image_id, x: 16 + column * (CARD.width + GAP.x), y: 16 + row * (CARD.height + GAP.y) });
    });
  });
  return placed;
}

type Point = { x: number; y: number };
type Rect = { x: number; y: number; w: number; h: number };
const LABEL_HEIGHT = 17;
/** Where on its curve a label may sit, tried in this order until it overlaps no other label. */
const LABEL_SPOTS = [0.5, 0.38, 0.62, 0.28, 0.72, 0.2, 0.8];

/** A point of the cubic Bézier p0 c1 c2 p3 at t. */
function bezier(p0: Point, c1: Point, c2: Point, p3: Point, t: number): Point {
  const u = 1 - t;
  const at = (a: number, b: number, c: number, d: number) => u * u * u * a + 3 * u * u * t * b + 3 * u * t * t * c + t * t * t * d;
  return { x: at(p0.x, c1.x, c2.x, p3.x), y: at(p0.y, c1.y, c2.y, p3.y) };
}

const overlaps = (a: Rect, b: Rect) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * Each transition's curve, and for a tap the label saying what was tapped, placed along its
 * own curve where it covers no card and no other label (BACK is the dashed style, not a label).
 */
function drawEdges(map: MenuMap, placed: Map<string, Placed>) {
  const titleOf = (id: string) => placed.get(id)?.title ?? id;
  // Cards first: a label keeps off them where its curve allows, and off the labels placed before it.
  const taken: Rect[] = [...placed.values()].map((n) => ({ x: n.x, y: n.y, w: CARD.width, h: CARD.height }));
  return map.transitions.flatMap((t, i) => {
    const from = placed.get(t.from);
    const to = placed.get(t.to);
    if (!from || !to) return [];
    const forward = to.x > from.x;
    const p0 = { x: forward ? from.x + CARD.width : from.x, y: from.y + CARD.height / 2 + ((i % 5) - 2) * 8 };
    const p3 = { x: forward ? to.x : to.x + CARD.width, y: to.y + CARD.height / 2 };
    const c1 = { x: p0.x + (forward ? GAP.x / 2 : -GAP.x), y: p0.y };
    const c2 = { x: p3.x - (forward ? GAP.x / 2 : -GAP.x), y: p3.y };
    const words = describeAction(t.action);
    const back = t.action.type === 'back';
    const text = back ? undefined : cut(words.replace(/^tap /, ''));
    let label: (Rect & { text: string }) | undefined;
    if (text !== undefined) {
      const w = text.length * 6.2 + 8;
      const boxAt = (spot: number) => {
        const p = bezier(p0, c1, c2, p3, spot);
        return { x: p.x - w / 2, y: p.y - LABEL_HEIGHT / 2, w, h: LABEL_HEIGHT };
      };
      const box = LABEL_SPOTS.map(boxAt).find((b) => !taken.some((other) => overlaps(b, other))) ?? boxAt(0.5);
      taken.push(box);
      label = { ...box, text };
    }
    return [{ key: i, back, d: `M${p0.x} ${p0.y} C${c1.x} ${c1.y} ${c2.x} ${c2.y} ${p3.x} ${p3.y}`, words, title: `${titleOf(t.from)} → ${words} → ${titleOf(t.to)}`, label }];
  });
}

export function MapGraph({ map }: { map: MenuMap }) {
  const placed = layout(map);
  const nodes = [...placed.values()];
  const width = Math.max(...nodes.map((n) => n.x + CARD.width), 0) + 16;
  const height = Math.max(...nodes.map((n) => n.y + CARD.height), 0) + 16;
  const taps = map.transitions.filter((t) => t.action.type === 'tap').length;
  const edges = drawEdges(map, placed);
  return (
    <Box tabIndex={0} role="region" aria-label="Map graph (scrolls)" style={{ overflow: 'auto', border: '1px solid var(--mantine-color-gray-3)', borderRadius: 8, background: 'var(--mantine-color-gray-0)' }} maw="100%" mah={720}>
      <svg width={width} height={height} role="img" aria-label={`Graph of ${map.screens.length} screens and ${map.transitions.length} transitions (${taps} taps)`}>
        <defs>
          <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0 0L10 5L0 10z" fill="#5c6f84" />
          </marker>
        </defs>
        {edges.map((e) => (
          <g key={e.key}>
            <title>{e.title}</title>
            <path d={e.d} fill="none" stroke={e.back ? '#9aa7b4' : '#5c6f84'} strokeDasharray={e.back ? '5 4' : undefined} strokeWidth={1.4} markerEnd="url(#arrow)" />
          </g>
        ))}
        {nodes.map((n) => (
          <g key={n.id} transform={`translate(${n.x} ${n.y})`}>
            <rect width={CARD.width} height={CARD.height} rx={8} fill="#fff" stroke="#c5ced8" />
            {n.thumbnail ? (
              <image href={thumbnailUrl(n.thumbnail)} x={(CARD.width - CARD.thumb * 0.45) / 2} y={8} width={CARD.thumb * 0.45} height={CARD.thumb} preserveAspectRatio="xMidYMid meet" />
            ) : (
              <rect x={(CARD.width - CARD.thumb * 0.45) / 2} y={8} width={CARD.thumb * 0.45} height={CARD.thumb} fill="#e9edf1" />
            )}
            <text x={CARD.width / 2} y={CARD.height - 12} textAnchor="middle" fontSize={12} fill="#1f2a37">
              {n.title.length > 18 ? `${n.title.slice(0, 17)}…` : n.title}
            </text>
          </g>
        ))}
        {/* The labels last, over the cards an arrow passes behind. */}
        {edges.map((e) => e.label && (
          <g key={e.key} data-edge-label={e.words}>
            <title>{e.title}</title>
            <rect x={e.label.x} y={e.label.y} width={e.label.w} height={e.label.h} rx={4} fill="#fff" stroke="#c5ced8" />
            <text x={e.label.x + e.label.w / 2} y={e.label.y + 12.5} textAnchor="middle" fontSize={11} fill="#1f2a37">{e.label.text}</text>
          </g>
        ))}
      </svg>
    </Box>
  );
}
