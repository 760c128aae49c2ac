import { defineMessages } from "../define-messages.js";

/** The sign-in page of `auth.mode: local` and the account corner of the sidebar. */
export const authMessages = defineMessages(
  "auth",
  {
    signInLead: "Sign in to your workspace.",
    registerLead: "Create an account.",
    email: "Email",
    password: "Password",
    signIn: "Sign in",
    createAccount: "Create account",
    toRegister: "First time here? Create an account",
    toSignIn: "Have an account? Sign in",
    signOut: "Sign out",
    signedInAs: "Signed in as {email}",
  },
  {
    signInLead: "登录你的工作区。",
    registerLead: "创建账号。",
    email: "邮箱",
    password: "密码",
    signIn: "登录",
    createAccount: "创建账号",
    toRegister: "第一次来？创建账号",
    toSignIn: "已有账号？登录",
    signOut: "退出登录",
    signedInAs: "已登录：{email}",
  },
);
