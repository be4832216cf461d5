"""`flask --app app users create | list | set-role | token | revoke`: the server's users, from the shell.

The first admin of a shared server is made here (a server bound to a public address with no users refuses to
start and names this command). Passwords are read at a prompt (or from stdin with --password-stdin), never
from the command line; a token is printed once and kept only as a digest.
"""
import sys
import time

import click
from flask import current_app
from flask.cli import with_appcontext

from accounts.passwords import check_new_password, digest, hash_password, new_token
from accounts.roles import ROLES, TIERS, USER_NAME, UserExists, check_tiers, default_tiers


def _accounts():
    return current_app.extensions["history"].accounts


def _user(name: str) -> dict:
    user = _accounts().user_named(name.strip().lower())
    if user is None:
        raise click.ClickException(f"No user named {name!r}; `flask --app app users list` shows them.")
    return user


def _tiers(value: str | None):
    if value is None:
        return None
    try:
        return list(check_tiers([t.strip() for t in value.split(",") if t.strip()]))
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None


@click.group("users")
def users_commands():
    """Create and manage the users of a shared server."""


@users_commands.command("create")
@click.argument("name")
@click.option("--role", type=click.Choice(list(ROLES)), default="learner", show_default=True)
@click.option("--tiers", help=f"Comma-separated, instead of the role's: {', '.join(TIERS)}.")
@click.option("--password-stdin", is_flag=True, help="Read the password from the first line of stdin.")
@with_appcontext
def create(name, role, tiers, password_stdin):
    """Create a user who signs in with NAME and a password."""
    name = name.strip().lower()
    if not USER_NAME.fullmatch(name):
        raise click.ClickException("A name is 1-64 lower-case letters, digits, '.', '_' and '-'.")
    password = (sys.stdin.readline().rstrip("\n") if password_stdin
                else click.prompt("Password", hide_input=True, confirmation_prompt=True))
    try:
        check_new_password(password)
        user = _accounts().create(name, role, hash_password(password), _tiers(tiers))
    except (ValueError, UserExists) as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"created {user['name']} ({user['role']}, id {user['id']})")


@users_commands.command("list")
@with_appcontext
def list_users():
    """Every user with role, tiers and whether disabled."""
    for user in _accounts().users():
        tiers = user["tiers"] if user["tiers"] is not None else default_tiers(user["role"])
        flag = " (disabled)" if user["disabled"] else ""
        click.echo(f"{user['id']:>4}  {user['name']:<24} {user['role']:<10} {','.join(tiers)}{flag}")


@users_commands.command("set-role")
@click.argument("name")
@click.argument("role", type=click.Choice(list(ROLES)))
@click.option("--tiers", help="Comma-separated tiers instead of the role's; 'role' for the role's own.")
@with_appcontext
def set_role(name, role, tiers):
    """Give NAME a role (and, with --tiers, the tiers they read)."""
    user = _user(name)
    changes = {"role": role}
    if tiers is not None:
        changes["tiers"] = None if tiers == "role" else _tiers(tiers)
    _accounts().update(user["id"], **changes)
    click.echo(f"{user['name']} is now {role}")


@users_commands.command("token")
@click.argument("name")
@click.option("--label", help="What the token is for, shown in lists.")
@click.option("--expires-days", type=click.IntRange(1, 3650), help="Days until it stops working (default: never).")
@with_appcontext
def token(name, label, expires_days):
    """Make a bearer token for NAME and print it (this once)."""
    user = _user(name)
    secret = new_token()
    expires_at = time.time() + expires_days * 86400 if expires_days else None
    token_id = _accounts().add_token(user["id"], digest(secret), label, expires_at)
    click.echo(secret)
    click.echo(f"token {token_id} for {user['name']}; send it as 'Authorization: Bearer <token>'", err=True)


@users_commands.command("revoke")
@click.argument("name")
@click.option("--token-id", type=int, help="Revoke this token only (ids: `users list-tokens`).")
@with_appcontext
def revoke(name, token_id):
    """Revoke NAME's tokens and sessions (or one token)."""
    user = _user(name)
    if token_id is not None and token_id not in {t["id"] for t in _accounts().tokens(user["id"])}:
        raise click.ClickException(f"{user['name']} has no token {token_id}.")
    count = _accounts().revoke(token_id, None if token_id is not None else user["id"])
    click.echo(f"revoked {count} token(s) of {user['name']}" + ("" if token_id else ", and their sessions"))


@users_commands.command("list-tokens")
@click.argument("name")
@with_appcontext
def list_tokens(name):
    """NAME's tokens: id, label, and whether live, revoked or expired."""
    now = time.time()
    for t in _accounts().tokens(_user(name)["id"]):
        state = ("revoked" if t["revoked_at"] else "expired" if t["expires_at"] and t["expires_at"] <= now
                 else "live")
        click.echo(f"{t['id']:>4}  {t['name'] or '':<24} {state}")
