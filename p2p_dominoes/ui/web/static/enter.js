location.replace("/");
