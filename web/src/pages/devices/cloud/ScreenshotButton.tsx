// A screenshot of the screen at full size (PNG), shown in a dialog with a download link.
// The image is fetched as a blob and shown through an object URL (img-src blob: is allowed).
import { Anchor, Button, Group, Modal, Stack } from '@mantine/core';
import { useEffect, useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { useAction } from '../../../lib/use-async';
import { screenshotBlob } from './cloud-api';

export function ScreenshotButton({ deviceId, deviceName }: { deviceId: number; deviceName: string }) {
  const [url, setUrl] = useState<string | null>(null);
  const take = useAction(() => screenshotBlob(deviceId));
  useEffect(() => () => {
    if (url) URL.revokeObjectURL(url);
  }, [url]);
  const shoot = async () => {
    const outcome = await take.run();
    if (outcome.ok) setUrl(URL.createObjectURL(outcome.value));
  };
  const fileName = `${deviceName.replace(/[^\w.-]+/g, '_')}-${new Date().toISOString().replace(/[:.]/g, '-')}.png`;
  return (
    <>
      <Button size="xs" variant="default" loading={take.pending} onClick={() => void shoot()}>Take a screenshot</Button>
      <ErrorAlert error={take.error} title="Could not take a screenshot" />
      <Modal opened={url !== null} onClose={() => setUrl(null)} title={`Screenshot of ${deviceName}`} centered size="auto">
        {url && (
          <Stack gap="sm" align="center">
            <img src={url} alt={`Screenshot of ${deviceName}`} style={{ maxHeight: '70vh', maxWidth: '100%', border: '1px solid var(--mantine-color-gray-4)' }} data-testid="screenshot-image" />
            <Group>
              <Anchor href={url} download={fileName} size="sm" underline="always">Download PNG</Anchor>
            </Group>
          </Stack>
        )}
      </Modal>
    </>
  );
}
