#if Web
  import HummingbirdWSClient
#endif
