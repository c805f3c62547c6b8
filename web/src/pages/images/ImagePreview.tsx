// One picture of the library at its own size (scaled down to fit), with what a macro needs
// to use it: its id, and how big it is on the screen it came from.
import { Code, Group, Modal, Stack, Text } from '@mantine/core';
import { formatBytes } from '../../lib/format';
import { contentUrl, type LibraryImage } from './images-api';

export function ImagePreview({ image, onClose }: { image: LibraryImage | null; onClose: () => void }) {
  return (
    <Modal opened={image !== null} onClose={onClose} title={image ? image.name : ''} centered size="auto">
      {image && (
        <Stack gap="sm" align="center">
          <div style={{ background: 'repeating-conic-gradient(#eef0f4 0% 25%, #ffffff 0% 50%) 0 0 / 16px 16px', border: '1px solid var(--mantine-color-gray-4)', lineHeight: 0 }}>
            <img src={contentUrl(image.id)} alt={image.name} data-testid="image-preview" style={{ maxWidth: 'min(720px, 80vw)', maxHeight: '60vh', width: image.width < 160 ? image.width * 2 : undefined, imageRendering: image.width < 160 ? 'pixelated' : 'auto' }} />
          </div>
          <Group gap="xs">
            <Text size="sm">In code and block steps:</Text>
            <Code>{image.id}</Code>
          </Group>
          <Text size="sm" c="dimmed">
            {image.width}×{image.height} px, {image.content_type === 'image/png' ? 'PNG' : 'JPEG'}, {formatBytes(image.size_bytes)}, {image.source === 'crop' ? 'cropped from a device screen' : 'uploaded'}
          </Text>
        </Stack>
      )}
    </Modal>
  );
}
