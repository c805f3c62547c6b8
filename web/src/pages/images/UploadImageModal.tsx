// Uploading a PNG or JPEG into the library. The name starts as the file's name; the service
// reads the picture's size and type itself and answers in its own words when the file is not
// a whole PNG or JPEG or is too large.
import { Button, FileInput, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useAction } from '../../lib/use-async';
import { uploadImage } from './images-api';

const nameFrom = (file: File) => file.name.replace(/\.[^.]+$/, '').slice(0, 100);

export function UploadImageModal({ opened, onClose, onUploaded }: { opened: boolean; onClose: () => void; onUploaded: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const upload = useAction(uploadImage);
  const close = () => {
    setFile(null);
    setName('');
    upload.reset();
    onClose();
  };
  const choose = (chosen: File | null) => {
    setFile(chosen);
    upload.reset();
    if (chosen && name.trim() === '') setName(nameFrom(chosen));
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    const outcome = await upload.run(name.trim(), file);
    if (outcome.ok) {
      onUploaded();
      close();
    }
  };
  return (
    <Modal opened={opened} onClose={close} title="Upload an image">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">A PNG or JPEG up to 5 MiB. For finding it on a screen, crop tightly around the thing itself, at the size the device shows it.</Text>
          <FileInput label="Picture" placeholder="Choose a .png or .jpg file" accept="image/png,image/jpeg" clearable clearButtonProps={{ 'aria-label': 'Clear the chosen file' }} value={file} onChange={choose}
            styles={{ placeholder: { color: 'var(--mantine-color-gray-7)' } }} />
          <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={100} />
          <ErrorAlert error={upload.error} title="The image was not uploaded" />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>Cancel</Button>
            <Button type="submit" loading={upload.pending} disabled={!file || name.trim() === ''}>Upload</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
