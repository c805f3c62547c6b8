// A horizontal stacked bar chart in plain SVG (no chart library is bundled), with the same
// numbers as a table behind a disclosure for screen readers and for anyone who wants them
// exact. One row per bar, one segment per series; the axis ticks fall on round values. It
// is drawn at the width it is given (measured), so its text keeps the page's sizes.
import { Table, Text, UnstyledButton } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useId, useState } from 'react';

export interface ChartSeries {
  name: string;
  /** A fill with at least 3:1 contrast on white (WCAG 1.4.11). */
  color: string;
}

export interface ChartRow {
  key: string;
  label: string;
  values: number[];
}

const ROW = 30;
const BAR = 16;
const VALUE_WIDTH = 72;
const AXIS = 22;

/**
 * Tick values from 0 past `max`, three to five intervals, each step 1, 2 or 5 times a power
 * of ten of the largest unit (a power of `base`) below `max`: 0, 20, 40 MB rather than 0,
 * 12.5, 25 MB.
 */
export function niceTicks(max: number, base: number): number[] {
  if (max <= 0) return [0, 1];
  let unit = 1;
  while (unit * base <= max) unit *= base;
  const rough = max / unit / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= rough) ?? 10 * power) * unit;
  const ticks = [0];
  while (ticks[ticks.length - 1] < max) ticks.push(ticks.length * step);
  return ticks;
}

const clip = (text: string, length: number) => (text.length > length ? `${text.slice(0, length - 1)}…` : text);

export function StackedBarChart({ title, series, rows, format, empty, base = 1024 }: { title: string; series: ChartSeries[]; rows: ChartRow[]; format: (n: number) => string; empty: string; base?: number }) {
  const id = useId();
  const [showTable, setShowTable] = useState(false);
  const { ref, width: measured } = useElementSize();
  if (rows.length === 0) return <Text size="sm" c="dimmed">{empty}</Text>;
  const ticks = niceTicks(Math.max(...rows.map((r) => r.values.reduce((a, b) => a + b, 0))), base);
  const max = ticks[ticks.length - 1];
  const width = Math.max(320, measured);
  const labelWidth = Math.min(200, Math.round(width * 0.3));
  const plot = width - labelWidth - VALUE_WIDTH;
  const height = rows.length * ROW + AXIS;
  const summary = rows.map((r) => `${r.label}: ${series.map((s, i) => `${format(r.values[i])} ${s.name}`).join(', ')}`).join('; ');
  return (
    <div ref={ref}>
      <svg viewBox={`0 0 ${width} ${height}`} width="100%" height={height} role="img" aria-labelledby={`${id}-t ${id}-d`} style={{ display: 'block', fontFamily: 'inherit' }}>
        <title id={`${id}-t`}>{title}</title>
        <desc id={`${id}-d`}>{summary}</desc>
        {ticks.map((t) => (
          <g key={t}>
            <line x1={labelWidth + (t / max) * plot} x2={labelWidth + (t / max) * plot} y1={0} y2={rows.length * ROW} stroke="var(--mantine-color-gray-3)" />
            <text x={labelWidth + (t / max) * plot} y={height - 6} fontSize={11} fill="var(--mantine-color-gray-7)" textAnchor={t === 0 ? 'start' : 'middle'}>{format(t)}</text>
          </g>
        ))}
        {rows.map((row, r) => {
          let x = labelWidth;
          const y = r * ROW + (ROW - BAR) / 2;
          const total = row.values.reduce((a, b) => a + b, 0);
          return (
            <g key={row.key}>
              <text x={labelWidth - 10} y={y + BAR / 2 + 4} fontSize={13} textAnchor="end" fill="var(--mantine-color-gray-9)">{clip(row.label, Math.floor(labelWidth / 8))}</text>
              {row.values.map((value, i) => {
                const length = (value / max) * plot;
                const rect = <rect key={series[i].name} x={x} y={y} width={Math.max(0, length)} height={BAR} rx={2} fill={series[i].color} />;
                x += length;
                return rect;
              })}
              <text x={x + 6} y={y + BAR / 2 + 4} fontSize={12} fill="var(--mantine-color-gray-8)">{format(total)}</text>
            </g>
          );
        })}
      </svg>
      <div style={{ display: 'flex', gap: 16, alignItems: 'center', marginTop: 6, flexWrap: 'wrap' }}>
        {series.map((s) => (
          <Text key={s.name} size="xs" c="gray.8" aria-hidden style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
            <span style={{ width: 10, height: 10, borderRadius: 2, background: s.color, display: 'inline-block' }} />{s.name}
          </Text>
        ))}
        <UnstyledButton ml="auto" fz="xs" c="indigo.8" td="underline" aria-expanded={showTable} aria-controls={`${id}-table`} onClick={() => setShowTable((v) => !v)}>
          {showTable ? 'Hide the table' : 'Show as a table'}
        </UnstyledButton>
      </div>
      {showTable && (
        <Table id={`${id}-table`} mt="xs" fz="sm" verticalSpacing={4}>
          <Table.Caption>{title}</Table.Caption>
          <Table.Thead><Table.Tr><Table.Th>Name</Table.Th>{series.map((s) => <Table.Th key={s.name}>{s.name}</Table.Th>)}<Table.Th>Total</Table.Th></Table.Tr></Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.key}>
                <Table.Td>{row.label}</Table.Td>
                {row.values.map((v, i) => <Table.Td key={series[i].name}>{format(v)}</Table.Td>)}
                <Table.Td>{format(row.values.reduce((a, b) => a + b, 0))}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </div>
  );
}
