// Publishing: one of your macros as a new listing (version 1), or a listing's next version
// frozen from its macro as it is now. A secret in the code, program or Default arguments is
// refused with where it is (PublishError).
import { Button, Group, Modal, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import { useAction, useAsync } from '../../lib/use-async';
import { allMacros } from '../macros/macros-api';
import { type Listing, parseTags, publishListing, publishVersion } from './marketplace-api';
import { PublishError } from './SecretFindings';

export function PublishModal({ opened, onClose, onPublished }: { opened: boolean; onClose: () => void; onPublished: () => void }) {
  const [macroId, setMacroId] = useState<string | null>(null);
  const [title, setTitle] = useState('');
  const [summary, setSummary] = useState('');
  const [tags, setTags] = useState('');
  const [description, setDescription] = useState('');
  // Every page of them: a choice must not stop silently at the first 100 (issue 34).
  const macros = useAsync(() => (opened ? allMacros() : Promise.resolve(undefined)), [opened]);
  const publish = useAction(async () => {
    const tagList = parseTags(tags);
    await publishListing({ macro_id: Number(macroId), title, summary, ...(tagList.length ? { tags: tagList } : {}), ...(description.trim() ? { description } : {}) });
    onPublished();
    onClose();
  });
  useEffect(() => {
    if (!opened) return;
    setMacroId(null);
    setTitle('');
    setSummary('');
    setTags('');
    setDescription('');
    publish.reset();
  }, [opened]); // the action's identity is stable

  const pick = (value: string | null) => {
    setMacroId(value);
    const macro = macros.data?.find((m) => String(m.id) === value);
    if (macro && !title) setTitle(macro.name);
    if (macro && !summary && macro.description) setSummary(macro.description.slice(0, 300));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (macroId) void publish.run();
  };
  return (
    <Modal opened={opened} onClose={onClose} size="lg" title={<Text fw={650}>Publish a macro</Text>}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <PublishError error={publish.error} title="Not published" />
          <Select
            label="Macro"
            description="A Python macro with synced code, or a block macro. Its code or program and Default arguments are frozen as version 1."
            placeholder={macros.loading ? 'Loading your macros…' : 'Choose a macro'}
            searchable
            required
            value={macroId}
            onChange={pick}
            data={(macros.data ?? []).map((m) => ({ value: String(m.id), label: `${m.name} (${m.kind === 'python' ? 'Python' : 'block'})` }))}
            data-autofocus
          />
          <TextInput label="Title" required maxLength={100} value={title} onChange={(e) => setTitle(e.currentTarget.value)} />
          <TextInput label="Summary" description="One sentence, up to 300 characters" required maxLength={300} value={summary} onChange={(e) => setSummary(e.currentTarget.value)} />
          <TextInput label="Tags" description="Up to 10, separated by commas or spaces: a-z, 0-9 and -" value={tags} onChange={(e) => setTags(e.currentTarget.value)} />
          <Textarea label="Description" description="Optional, Markdown, up to 20,000 characters" autosize minRows={3} maxRows={12} maxLength={20000} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={publish.pending} disabled={!macroId}>Publish</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export function NewVersionModal({ listing, onClose, onPublished }: { listing: Listing | null; onClose: () => void; onPublished: () => void }) {
  const [notes, setNotes] = useState('');
  const publish = useAction(async (id: number) => {
    await publishVersion(id, notes.trim() ? { notes } : {});
    onPublished();
    onClose();
  });
  useEffect(() => {
    setNotes('');
    publish.reset();
  }, [listing?.id]); // the action's identity is stable
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (listing) void publish.run(listing.id);
  };
  return (
    <Modal opened={listing !== null} onClose={onClose} size="lg" title={<Text fw={650}>New version of {listing?.title}</Text>}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <PublishError error={publish.error} title="No new version" />
          <Text size="sm">
            Version {(listing?.latest_version ?? 0) + 1} freezes the macro’s code or program and Default arguments as they are now. Installed copies stay on their version until their owners move them.
          </Text>
          <Textarea label="Notes" description="What changed, up to 2,000 characters" autosize minRows={2} maxLength={2000} value={notes} onChange={(e) => setNotes(e.currentTarget.value)} data-autofocus />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={publish.pending}>Publish version</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
