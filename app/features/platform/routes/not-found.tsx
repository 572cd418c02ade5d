import { data } from "react-router";

export function loader() {
  throw data("Page not found", { status: 404 });
}

export function action() {
  throw data("Page not found", { status: 404 });
}

export default function NotFound() {
  return null;
}
