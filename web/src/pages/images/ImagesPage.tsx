// The image library: every picture macros can look for on a screen (by id, in code and block
// steps), with a thumbnail that opens a preview, a name and source filter, paging, an upload,
// and a delete that says what it breaks. Crops arrive from a cloud device's live view.
import { Badge, Button, Text, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { useLocation } from '../../app/router';
import { FilterBar } from '../../components/FilterBar';
import { ImageIcon, PlusIcon } from '../../components/icons';
import { PageHeader } from '../../components/PageHeader';
import { pageFrom } from '../../components/Pager';
import { type Column, ResourceTable } from '../../components/ResourceTable';
import { Time } from '../../components/Time';
import { formatBytes } from '../../lib/format';
import { useAsync } from '../../lib/use-async';
import { contentUrl, deleteImage, type LibraryImage, listImages } from './images-api';
import { ImagePreview } from './ImagePreview';
import { UploadImageModal } from './UploadImageModal';

const PAGE_SIZE = 20;
const SOURCES = [{ value: 'upload', label: 'Uploaded' }, { value: 'crop', label: 'Cropped from a screen' }];

function Thumbnail({ image, onOpen }: { image: LibraryImage; onOpen: () => void }) {
  return (
    <UnstyledButton onClick={onOpen} aria-label={`Preview ${image.name}`} style={{ width: 56, height: 56, display: 'grid', placeItems: 'center', border: '1px solid var(--mantine-color-gray-3)', borderRadius: 6, background: 'var(--mantine-color-gray-0)', overflow: 'hidden' }}>
      <img src={contentUrl(image.id)} alt="" loading="lazy" style={{ maxWidth: 54, maxHeight: 54, objectFit: 'contain', imageRendering: image.width < 54 && image.height < 54 ? 'pixelated' : 'auto' }} />
    </UnstyledButton>
  );
}

export function ImagesPage() {
  const { query } = useLocation();
  const page = pageFrom(query);
  const name = query.get('name') ?? '';
  const source = query.get('source') === 'upload' || query.get('source') === 'crop' ? (query.get('source') as 'upload' | 'crop') : undefined;
  const images = useAsync(() => listImages({ page, page_size: PAGE_SIZE, ...(name ? { name } : {}), ...(source ? { source } : {}) }), [page, name, source]);
  const filtered = name !== '' || source !== undefined;
  const [uploading, setUploading] = useState(false);
  const [previewing, setPreviewing] = useState<LibraryImage | null>(null);

  const columns: Column<LibraryImage>[] = [
    { header: 'Picture', cell: (image) => <Thumbnail image={image} onOpen={() => setPreviewing(image)} /> },
    { header: 'Name', maxWidth: 260, cell: (image) => <Text size="sm" fw={600} truncate="end">{image.name}</Text> },
    { header: 'Id', cell: (image) => <Text className="mono">{image.id}</Text> },
    {
      header: 'Size',
      cell: (image) => (
        <>
          <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{image.width}×{image.height} px</Text>
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>{image.content_type === 'image/png' ? 'PNG' : 'JPEG'}, {formatBytes(image.size_bytes)}</Text>
        </>
      ),
    },
    { header: 'Source', cell: (image) => <Badge variant="light" color={image.source === 'crop' ? 'violet' : 'gray'} tt="none">{image.source === 'crop' ? 'Crop' : 'Upload'}</Badge> },
    { header: 'Added', cell: (image) => <Text size="sm"><Time value={image.created_at} /></Text> },
  ];

  return (
    <>
      <PageHeader
        title="Images"
        description="Pictures your macros look for on the screen: a button, an icon, a piece of a game. Name them by id in code (svc_device.find_image) and in block steps (tap by image, if image). Crop one from a cloud device's live view, or upload a PNG or JPEG."
        actions={<Button leftSection={<PlusIcon size={16} />} onClick={() => setUploading(true)}>Upload image</Button>}
      />
      <ResourceTable
        noun="image"
        list={images}
        columns={columns}
        rowKey={(image) => image.id}
        minWidth={900}
        toolbar={
          <FilterBar
            label="Filter images"
            filtered={filtered}
            fields={[
              { kind: 'text', param: 'name', label: 'Filter by name', width: 260 },
              { kind: 'select', param: 'source', label: 'Source', placeholder: 'Any source', width: 220, data: SOURCES },
            ]}
          />
        }
        filtered={filtered}
        empty={{
          icon: <ImageIcon size={22} />,
          title: 'No images yet',
          body: 'Upload a PNG or JPEG, or open a ready cloud device and crop a piece of its screen.',
          action: <Button onClick={() => setUploading(true)}>Upload your first image</Button>,
        }}
        remove={{
          buttonLabel: (image) => `Delete ${image.name}`,
          title: 'Delete this image?',
          confirmLabel: 'Delete image',
          body: (image) => (
            <>
              “{image.name}” (<span className="mono">{image.id}</span>) leaves the library at once. Macros that still name it fail at that step, and the next code upload warns about it. This cannot be undone.
            </>
          ),
          run: async (image) => {
            await deleteImage(image.id);
            images.reload();
          },
        }}
      />
      <UploadImageModal opened={uploading} onClose={() => setUploading(false)} onUploaded={images.reload} />
      <ImagePreview image={previewing} onClose={() => setPreviewing(null)} />
    </>
  );
}
