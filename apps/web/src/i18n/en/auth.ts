/** Sign in and sign up (apps/web/src/features/auth). */
export default {
  signinTitle: 'Sign in to Parley',
  signupTitle: 'Create your Parley account',
  invitationNote:
    'Use the email address your invitation was sent to. You come back to the invitation afterwards.',
  name: 'Name',
  email: 'Email',
  password: 'Password',
  passwordNote: 'At least 10 characters.',
  signin: 'Sign in',
  signup: 'Sign up',
  haveAccount: 'Already have an account? <a>Sign in</a>',
  newToParley: 'New to Parley? <a>Create an account</a>',
};
