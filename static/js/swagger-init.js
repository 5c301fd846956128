// Starts Swagger UI on /docs. It is a file, not an inline script, so the page's CSP allows
// scripts from this site only; the page names the OpenAPI document in data-openapi.
(function () {
  "use strict";
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.dataset.openapi,
    domNode: root,
    layout: "BaseLayout",
    deepLinking: true,
    showExtensions: true,
    showCommonExtensions: true,
    presets: [SwaggerUIBundle.presets.apis],
  });
})();
