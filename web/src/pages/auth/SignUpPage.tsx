// Create an account: it starts a 14-day trial and signs in at once.
import { Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link } from '../../app/router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useAction } from '../../lib/use-async';
import { useSession } from '../../state/session';
import { AuthLayout } from './AuthLayout';
import { signUp } from './auth-api';

export function SignUpPage() {
  const { signedIn } = useSession();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signup = useAction(async () => {
    const result = await signUp({ email, password, ...(name.trim() ? { name: name.trim() } : {}) });
    signedIn(result.user, result.subscription);
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void signup.run();
  };
  return (
    <AuthLayout
      title="Create your account"
      subtitle="Start with a free 14-day trial. No card needed."
      footer={<>Already have an account? <Anchor component={Link} to="/signin" fw={600}>Sign in</Anchor></>}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <ErrorAlert error={signup.error} title="Could not create the account" />
          <TextInput label="Name" description="Optional" autoComplete="name" value={name} onChange={(e) => setName(e.currentTarget.value)} />
          <TextInput label="Email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
          <PasswordInput
            label="Password"
            description="At least 8 characters"
            autoComplete="new-password"
            required
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          <Button type="submit" fullWidth loading={signup.pending} mt="xs">Create account</Button>
          <Text size="xs" c="dimmed" ta="center">Your trial gives every API key full use of the service for 14 days.</Text>
        </Stack>
      </form>
    </AuthLayout>
  );
}
