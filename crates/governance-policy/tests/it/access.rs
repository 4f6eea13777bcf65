//! Steps 1–4 of the order of checks, grants and the owner check.

use governance_policy::{AgentAccess, CredentialState, check_agent_access, grant, require_owner};
use memory_core::{ErrorCode, Role, Scope, Settings};

fn enabled() -> Settings {
    Settings::new(true, 90).unwrap()
}

fn code(access: &AgentAccess<'_>) -> Option<ErrorCode> {
    check_agent_access(access).err().map(|e| e.code())
}

#[test]
fn each_step_refuses_with_its_code_and_status() {
    let on = enabled();
    let off = Settings::default();
    let write = [Scope::MemoryWrite];
    let valid = CredentialState::Valid {
        role: Role::Editor,
        scopes: &write,
    };
    let base = AgentAccess {
        retaining: true,
        settings: &on,
        credential: valid,
        required: Scope::MemoryWrite,
    };
    assert_eq!(code(&base), None);

    let cases = [
        (
            AgentAccess {
                credential: CredentialState::Unknown,
                ..base
            },
            ErrorCode::AgentCredentialInvalid,
            401,
        ),
        (
            AgentAccess {
                retaining: false,
                ..base
            },
            ErrorCode::NonRetainingWorkspace,
            403,
        ),
        (
            AgentAccess {
                settings: &off,
                ..base
            },
            ErrorCode::AgentMemoryDisabled,
            403,
        ),
        (
            AgentAccess {
                credential: CredentialState::Invalid,
                ..base
            },
            ErrorCode::AgentCredentialInvalid,
            401,
        ),
        (
            AgentAccess {
                required: Scope::MemoryRead,
                ..base
            },
            ErrorCode::AgentMemoryScopeRequired,
            403,
        ),
    ];
    for (access, expected, status) in cases {
        let err = check_agent_access(&access).unwrap_err();
        assert_eq!(
            (err.code(), err.http_status()),
            (expected, status),
            "{access:?}"
        );
    }
}

#[test]
fn first_failure_wins_over_every_combination() {
    let on = enabled();
    let off = Settings::default();
    let both = Scope::ALL;
    let read_only = [Scope::MemoryRead];
    let credentials = [
        CredentialState::Unknown,
        CredentialState::Invalid,
        CredentialState::Valid {
            role: Role::Viewer,
            scopes: &both,
        },
        CredentialState::Valid {
            role: Role::Editor,
            scopes: &both,
        },
        CredentialState::Valid {
            role: Role::Owner,
            scopes: &read_only,
        },
    ];
    for retaining in [true, false] {
        for settings in [&on, &off] {
            for credential in credentials {
                for required in Scope::ALL {
                    let access = AgentAccess {
                        retaining,
                        settings,
                        credential,
                        required,
                    };
                    // The spec's order, written out independently of the implementation.
                    let expected = if credential == CredentialState::Unknown {
                        Some(ErrorCode::AgentCredentialInvalid)
                    } else if !retaining {
                        Some(ErrorCode::NonRetainingWorkspace)
                    } else if !settings.agent_memories_enabled {
                        Some(ErrorCode::AgentMemoryDisabled)
                    } else {
                        match credential {
                            CredentialState::Valid { role, scopes }
                                if scopes.contains(&required) && role >= required.min_role() =>
                            {
                                None
                            }
                            CredentialState::Valid { .. } => {
                                Some(ErrorCode::AgentMemoryScopeRequired)
                            }
                            _ => Some(ErrorCode::AgentCredentialInvalid),
                        }
                    };
                    assert_eq!(code(&access), expected, "{access:?}");
                }
            }
        }
    }
}

#[test]
fn non_retaining_refuses_even_when_enabled() {
    let on = enabled();
    let access = AgentAccess {
        retaining: false,
        settings: &on,
        credential: CredentialState::Invalid,
        required: Scope::MemoryRead,
    };
    assert_eq!(code(&access), Some(ErrorCode::NonRetainingWorkspace));
}

#[test]
fn downgraded_member_loses_the_scope_effect() {
    let on = enabled();
    let scopes = Scope::ALL;
    // Granted while editor.
    assert!(grant(Role::Editor, &scopes).is_ok());
    let downgraded = AgentAccess {
        retaining: true,
        settings: &on,
        credential: CredentialState::Valid {
            role: Role::Viewer,
            scopes: &scopes,
        },
        required: Scope::MemoryWrite,
    };
    assert_eq!(code(&downgraded), Some(ErrorCode::AgentMemoryScopeRequired));
    // Reading still works: viewer is memory:read's minimum.
    assert_eq!(
        code(&AgentAccess {
            required: Scope::MemoryRead,
            ..downgraded
        }),
        None
    );
}

#[test]
fn grants_follow_the_role_table() {
    for role in Role::ALL {
        assert!(grant(role, &[Scope::MemoryRead]).is_ok());
        let write = grant(role, &[Scope::MemoryWrite]);
        assert_eq!(write.is_ok(), role >= Role::Editor, "{role}");
        if let Err(err) = write {
            assert_eq!(err.code(), ErrorCode::AgentMemoryScopeNotGrantable);
            assert_eq!(err.http_status(), 400);
        }
    }
}

#[test]
fn only_the_owner_manages() {
    assert!(require_owner(Some(Role::Owner)).is_ok());
    for role in [
        None,
        Some(Role::Viewer),
        Some(Role::Editor),
        Some(Role::Admin),
    ] {
        let err = require_owner(role).unwrap_err();
        assert_eq!(
            (err.code(), err.http_status()),
            (ErrorCode::AskHistoryManageRequired, 403)
        );
    }
}
