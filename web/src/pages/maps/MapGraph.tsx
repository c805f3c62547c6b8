// The map drawn as a graph: one column per step from the app's start (a screen's recorded
// path length), each screen a card with its thumbnail and title, each transition an arrow
// (solid for a tap, dashed for BACK). Wide maps scroll sideways. The same transitions are
// listed in a table beside it for keyboards and screen readers.
import { Box } from '@mantine/core';
import { thumbnailUrl, type MenuMap } from './maps-api';

const CARD = { width: 132, height: 214, thumb: 176 };
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

export function MapGraph({ map }: { map: MenuMap }) {
  const placed = layout(map);
  const nodes = [...placed.values()];
  const width = Math.max(...nodes.map((n) => n.x + CARD.width), 0) + 16;
  const height = Math.max(...nodes.map((n) => n.y + CARD.height), 0) + 16;
  const taps = map.transitions.filter((t) => t.action.type === 'tap').length;
  return (
    <Box tabIndex={0} role="region" aria-label="Map graph (scrolls)" style={{ overflow: 'auto', border: '1px solid var(--mantine-color-gray-3)', borderRadius: 8, background: 'var(--mantine-color-gray-0)' }} maw="100%" mah={720}>
      <svg width={width} height={height} role="img" aria-label={`Graph of ${map.screens.length} screens and ${map.transitions.length} transitions (${taps} taps)`}>
        <defs>
          <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0 0L10 5L0 10z" fill="#5c6f84" />
          </marker>
        </defs>
        {map.transitions.map((t, i) => {
          const from = placed.get(t.from);
          const to = placed.get(t.to);
          if (!from || !to) return null;
          const forward = to.x > from.x;
          const x1 = forward ? from.x + CARD.width : from.x;
          const x2 = forward ? to.x : to.x + CARD.width;
          const y1 = from.y + CARD.height / 2 + ((i % 5) - 2) * 8;
          const y2 = to.y + CARD.height / 2;
          const bend = forward ? GAP.x / 2 : -GAP.x;
          return (
            <path
              key={i}
              d={`M${x1} ${y1} C${x1 + bend} ${y1} ${x2 - (forward ? GAP.x / 2 : -GAP.x)} ${y2} ${x2} ${y2}`}
              fill="none"
              stroke={t.action.type === 'back' ? '#9aa7b4' : '#5c6f84'}
              strokeDasharray={t.action.type === 'back' ? '5 4' : undefined}
              strokeWidth={1.4}
              markerEnd="url(#arrow)"
            />
          );
        })}
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
      </svg>
    </Box>
  );
}
