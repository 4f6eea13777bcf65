//! The OpenAPI 3.1 document of the routes: one operation per entry of [`ROUTES`], with the
//! request, query and response schemas of `agent_memory::openapi` (derived from the facade's
//! types), the path parameters of the route's template, every status the route answers, and the
//! bearer security scheme.

use agent_memory::json::Operation;
use agent_memory::openapi as schemas;
use utoipa::openapi::path::{
    HttpMethod, OperationBuilder, Parameter, ParameterBuilder, ParameterIn, Paths,
};
use utoipa::openapi::request_body::RequestBodyBuilder;
use utoipa::openapi::security::{Http, HttpAuthScheme, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{
    Content, Header, InfoBuilder, ObjectBuilder, OpenApi, OpenApiBuilder, Required,
    ResponseBuilder, Responses, Type,
};

use crate::routes::{CallerKind, Input, ROUTES, Route, RouteMethod, path_parameters};

/// The name of the security scheme every route requires.
pub const SECURITY_SCHEME: &str = "bearer";

fn method(route: &Route) -> HttpMethod {
    match route.method {
        RouteMethod::Get => HttpMethod::Get,
        RouteMethod::Post => HttpMethod::Post,
        RouteMethod::Put => HttpMethod::Put,
        RouteMethod::Delete => HttpMethod::Delete,
    }
}

/// Every status `route` answers besides 200, each with what it means there.
pub fn error_statuses(route: &Route) -> Vec<(u16, &'static str)> {
    use Operation as Op;
    let mut out = Vec::new();
    let body = route.input == Input::Body;
    let validated = body || route.input == Input::Query;
    if validated {
        out.push((400, "the request is not valid (see the error code)"));
    }
    out.push((401, "no valid credentials for this route"));
    match route.caller {
        CallerKind::Agent => {
            out.push((
                403,
                "agent memories are off, the workspace does not retain, a scope is missing or the context set refuses",
            ));
            if route.operation == Op::Forget {
                out.push((404, "no such memory or key"));
            }
            if route.operation == Op::Remember {
                out.push((409, "the member's quota of versions is used up"));
            }
        }
        CallerKind::Member => {
            if matches!(
                route.operation,
                Op::SettingsGet | Op::SettingsPut | Op::OwnerDeleteAll
            ) {
                out.push((403, "only the workspace owner may do this"));
            }
            if route.operation == Op::MemberDelete {
                out.push((404, "not one of the member's own memories"));
            }
        }
        // No route takes a session caller.
        CallerKind::Store | CallerKind::Session => {
            out.push((403, "the member's role does not allow this"));
            out.push((404, "no such store, memory, version or session"));
            out.push((
                409,
                "archived, precondition failed, path taken, or the version cannot be used",
            ));
        }
    }
    if body {
        out.push((413, "the body or the content is too large"));
    }
    if route.operation == Op::Remember {
        out.push((429, "the credential's rate limit; see Retry-After"));
    }
    out.sort_by_key(|(status, _)| *status);
    out
}

fn string_parameter(name: &str, location: ParameterIn, required: bool) -> Parameter {
    ParameterBuilder::new()
        .name(name)
        .parameter_in(location)
        .required(if required {
            Required::True
        } else {
            Required::False
        })
        .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
        .build()
}

fn operation(route: &Route) -> utoipa::openapi::path::Operation {
    let op = route.operation;
    let mut parameters: Vec<Parameter> = path_parameters(route.path)
        .map(|name| string_parameter(name, ParameterIn::Path, true))
        .collect();
    if route.input == Input::Query {
        parameters.extend(schemas::query_parameters(op));
    }
    let mut responses = Responses::new();
    responses.responses.insert(
        "200".to_owned(),
        ResponseBuilder::new()
            .description("the operation's response")
            .content(
                "application/json",
                Content::new(Some(schemas::response_schema(op))),
            )
            .build()
            .into(),
    );
    for (status, meaning) in error_statuses(route) {
        let mut response = ResponseBuilder::new().description(meaning).content(
            "application/json",
            Content::new(Some(schemas::error_schema())),
        );
        if status == 429 {
            response = response.header(
                "Retry-After",
                Header::new(ObjectBuilder::new().schema_type(Type::Integer)),
            );
        }
        responses
            .responses
            .insert(status.to_string(), response.build().into());
    }
    let tag = match route.caller {
        CallerKind::Agent => "agent memories",
        CallerKind::Member => "settings and member",
        CallerKind::Store | CallerKind::Session => "memory stores",
    };
    let mut builder = OperationBuilder::new()
        .operation_id(Some(op.name()))
        .summary(Some(route.summary))
        .tag(tag)
        .parameters(Some(parameters))
        .responses(responses)
        .security(SecurityRequirement::new::<_, [&str; 0], &str>(
            SECURITY_SCHEME,
            [],
        ));
    if route.input == Input::Body {
        let body = RequestBodyBuilder::new()
            .required(Some(Required::True))
            .content(
                "application/json",
                Content::new(schemas::request_schema(op)),
            )
            .build();
        builder = builder.request_body(Some(body));
    }
    builder.build()
}

/// The document of every route in [`ROUTES`].
pub fn document() -> OpenApi {
    let mut paths = Paths::new();
    for route in ROUTES {
        paths.add_path_operation(route.path, vec![method(route)], operation(route));
    }
    let mut components = schemas::components();
    components.add_security_scheme(
        SECURITY_SCHEME,
        SecurityScheme::Http(Http::new(HttpAuthScheme::Bearer)),
    );
    OpenApiBuilder::new()
        .info(
            InfoBuilder::new()
                .title("agent-memory")
                .version(env!("CARGO_PKG_VERSION"))
                .description(Some(
                    "Governed agent memories and memory stores. Every error answers \
                     {\"error\": {\"code\", \"message\", \"retryAfterSeconds\"?}}.",
                ))
                .build(),
        )
        .paths(paths)
        .components(Some(components))
        .build()
}
