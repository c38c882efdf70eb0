// Stylesheets mean nothing to jsdom: component tests import them as an empty module.
module.exports = {};
