// The session routes: who is signed in, signing up, in and out (the API sets and clears the
// HttpOnly session cookie; the console never sees the token).
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { BodyOf } from '../../api/types';

export const me = () => unwrap(api.GET('/api/auth/me'));
export const signIn = (body: BodyOf<'/api/auth/login', 'post'>) => unwrap(api.POST('/api/auth/login', { body }));
export const signUp = (body: BodyOf<'/api/auth/signup', 'post'>) => unwrap(api.POST('/api/auth/signup', { body }));
export const signOut = () => unwrap(api.POST('/api/auth/logout'));
