// Sign in with email and password; the API sets the session cookie.
import { Anchor, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link } from '../../app/router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useAction } from '../../lib/use-async';
import { useSession } from '../../state/session';
import { AuthLayout } from './AuthLayout';
import { signIn } from './auth-api';

export function SignInPage() {
  const { signedIn } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const login = useAction(async () => {
    const result = await signIn({ email, password });
    signedIn(result.user, result.subscription);
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void login.run();
  };
  return (
    <AuthLayout
      title="Sign in"
      subtitle="Manage your macros, devices, keys and webhooks."
      footer={<>New here? <Anchor component={Link} to="/signup" fw={600}>Create an account</Anchor></>}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <ErrorAlert error={login.error} title="Could not sign in" />
          <TextInput label="Email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} data-autofocus />
          <PasswordInput label="Password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
          <Button type="submit" fullWidth loading={login.pending} mt="xs">Sign in</Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}
