// The Daily Feed's 150 posts, made from a few lists so every headline is different and reads
// like a real news feed: a subject, one of six kinds of story about it, an author, an age.
const SUBJECTS = [
  'the night ferry',
  'city allotments',
  'the corner bakery',
  'rooftop beehives',
  'the river clean-up',
  'the last video shop',
  'the village choir',
  'e-bike commuters',
  'the tool library',
  'a tiny museum',
  'the market traders',
  'the late-night radio',
  'school chess clubs',
  'the repair café',
  'seaside swimmers',
  'the mountain hut',
  'the street orchard',
  'a kitchen garden',
  'the old observatory',
  'the bus drivers',
  'the book swap',
  'a family vineyard',
  'the lighthouse keepers',
  'community fridges',
  'the night-shift nurses',
];

const KINDS: Array<(subject: string) => string> = [
  (s) => `What ${s} taught us about patience`,
  (s) => `A week with ${s}`,
  (s) => `The case for ${s}`,
  (s) => `The quiet comeback of ${s}`,
  (s) => `Ten photos of ${s} at dawn`,
  (s) => `Five questions about ${s}, answered`,
];

const AUTHORS = ['Mara Quinn', 'Tomás Ruiz', 'Aiko Tanaka', 'Ben Okafor', 'Lena Fischer', 'Priya Nair', 'Sam Holt', 'Noor Haddad', 'Ines Costa', 'Jonah Reed', 'Elsa Lind', 'Kofi Mensah'];

export interface FeedPost {
  title: string;
  subject: string;
  meta: string;
  /** The comment line the post's page shows a moment after it opens. */
  comments: string;
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export const POST_COUNT = 150;

export const FEED_POSTS: FeedPost[] = Array.from({ length: POST_COUNT }, (_, i) => {
  const subject = SUBJECTS[i % SUBJECTS.length];
  const title = capital(KINDS[Math.floor(i / SUBJECTS.length) % KINDS.length](subject));
  const hours = 1 + Math.floor(i / 3);
  const age = hours < 24 ? `${hours} h` : `${Math.floor(hours / 24)} d`;
  return { title, subject, meta: `${AUTHORS[(i * 7) % AUTHORS.length]} · ${age} · ${3 + ((i * 5) % 9)} min read`, comments: `${24 + ((i * 37) % 80)} comments · ${(3 + i * 2) % 7} new` };
});
